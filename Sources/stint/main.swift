import Foundation
import StintCLI

exit(StintCLI.main())
