import StintCLI
import Foundation
exit(StintCLI.main())
