public enum StintCLI {
    public static func main() -> Int32 { 0 }
}
