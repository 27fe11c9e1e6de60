import StintLog

/// The `LogError` that `body` throws; nil when it returns (or throws something else).
func logError<T>(_ body: () throws -> T) -> LogError? {
    do {
        _ = try body()
        return nil
    } catch let error as LogError {
        return error
    } catch {
        return nil
    }
}
