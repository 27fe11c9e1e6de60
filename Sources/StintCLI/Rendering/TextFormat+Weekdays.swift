import Foundation
import StintCore
import StintEngine

extension TextFormat {
    static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
}
