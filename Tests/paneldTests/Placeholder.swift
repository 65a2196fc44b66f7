import Testing
@Suite struct Placeholder { @Test func builds() {} }
