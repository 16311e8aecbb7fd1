import Testing
import BLECore

/// The strict JSON reader against the categories of Nicolas Seriot's JSONTestSuite: `y_` texts
/// every parser must accept, `n_` texts it must reject, and `i_` texts where RFC 8259 lets the
/// implementation choose. The cases are our own, written after the suite's file names (the
/// name of the suite's file each one stands for is in the comment), not copied from it.
@Suite("JSONReader")
struct JSONReaderTests {
    static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue { try JSONReader().value(parsing: text) }
    static func parse(_ octets: [UInt8]) throws(JSONSyntaxError) -> JSONValue { try JSONReader().value(parsing: octets) }

    /// The error a text gives, nil when it parses.
    static func error(_ text: String) -> JSONSyntaxError? { error(Array(text.utf8)) }
    static func error(_ octets: [UInt8]) -> JSONSyntaxError? {
        do {
            _ = try JSONReader().value(parsing: octets)
            return nil
        } catch {
            return error
        }
    }

    // MARK: y_: accepted, with the value they hold

    struct Accepted: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var value: JSONValue
        var testDescription: String { name }
    }

    static let accepted: [Accepted] = [
        .init(name: "y_array_empty", text: "[]", value: .array([])),
        .init(name: "y_array_heterogeneous", text: #"[null, 1, "1", {}]"#, value: .array([.null, .int(1), .string("1"), .object([])])),
        .init(name: "y_array_with_several_null", text: "[1,null,null,null,2]", value: .array([.int(1), .null, .null, .null, .int(2)])),
        .init(name: "y_array_arraysWithSpaces", text: "[[]   ]", value: .array([.array([])])),
        .init(name: "y_object_empty", text: "{}", value: .object([])),
        .init(name: "y_object_empty_key", text: #"{"":0}"#, value: .object([("", .int(0))])),
        .init(name: "y_object_escaped_null_in_key", text: #"{"foo\u0000bar": 42}"#, value: .object([("foo\u{0}bar", .int(42))])),
        .init(name: "y_object_basic", text: #"{"asd":"sdf", "dfg":"fgh"}"#,
              value: .object([("asd", .string("sdf")), ("dfg", .string("fgh"))])),
        .init(name: "y_object_with_newlines", text: "{\n\"a\": \"b\"\n}", value: .object([("a", .string("b"))])),
        .init(name: "y_number_0e+1", text: "[0e+1]", value: .array([.double(0)])),
        .init(name: "y_number_0e1", text: "[0e1]", value: .array([.double(0)])),
        .init(name: "y_number_after_space", text: "[ 4]", value: .array([.int(4)])),
        .init(name: "y_number_double_close_to_zero", text: "[-0.000000000000000000000000000000000000000000000000000000000000000000000000000001]",
              value: .array([.double(-1e-78)])),
        .init(name: "y_number_int_with_exp", text: "[20e1]", value: .array([.double(200)])),
        .init(name: "y_number_minus_zero", text: "[-0]", value: .array([.int(0)])),
        .init(name: "y_number_negative_int", text: "[-123]", value: .array([.int(-123)])),
        .init(name: "y_number_real_capital_e_neg_exp", text: "[1E-2]", value: .array([.double(0.01)])),
        .init(name: "y_number_real_capital_e_pos_exp", text: "[1E+2]", value: .array([.double(100)])),
        .init(name: "y_number_real_fraction_exponent", text: "[123.456e78]", value: .array([.double(123.456e78)])),
        .init(name: "y_number_simple_real", text: "[123.456789]", value: .array([.double(123.456789)])),
        .init(name: "y_number (Int.max)", text: "9223372036854775807", value: .int(.max)),
        .init(name: "y_string_allowed_escapes", text: #"["\"\\\/\b\f\n\r\t"]"#, value: .array([.string("\"\\/\u{8}\u{C}\n\r\t")])),
        .init(name: "y_string_accepted_surrogate_pair", text: #"["\uD801\udc37"]"#, value: .array([.string("\u{10437}")])),
        .init(name: "y_string_surrogates_U+1D11E_MUSICAL_SYMBOL_G_CLEF", text: #"["\uD834\uDd1e"]"#, value: .array([.string("\u{1D11E}")])),
        .init(name: "y_string_null_escape", text: #"["\u0000"]"#, value: .array([.string("\u{0}")])),
        .init(name: "y_string_escaped_noncharacter", text: #"["\uFFFF"]"#, value: .array([.string("\u{FFFF}")])),
        .init(name: "y_string_unicode_U+10FFFE_nonchar", text: #"["\uDBFF\uDFFE"]"#, value: .array([.string("\u{10FFFE}")])),
        .init(name: "y_string_utf8", text: "[\"€𝄞\"]", value: .array([.string("€𝄞")])),
        .init(name: "y_string_unescaped_char_delete", text: "[\"\u{7F}\"]", value: .array([.string("\u{7F}")])),
        .init(name: "y_string_u+2028_line_sep", text: "[\"\u{2028}\"]", value: .array([.string("\u{2028}")])),
        .init(name: "y_string_in_array_with_leading_space", text: #"[ "asd"]"#, value: .array([.string("asd")])),
        .init(name: "y_structure_lonely_true", text: "true", value: .bool(true)),
        .init(name: "y_structure_lonely_false", text: "false", value: .bool(false)),
        .init(name: "y_structure_lonely_null", text: "null", value: .null),
        .init(name: "y_structure_lonely_int", text: "42", value: .int(42)),
        .init(name: "y_structure_lonely_string", text: #""asd""#, value: .string("asd")),
        .init(name: "y_structure_trailing_newline", text: "[\"a\"]\n", value: .array([.string("a")])),
        .init(name: "y_structure_whitespace_array", text: " \t\r\n[]\r\n ", value: .array([])),
        .init(name: "y_structure_true_in_array", text: "[true]", value: .array([.bool(true)])),
    ]

    @Test("y_: RFC 8259 texts every parser accepts give the values they hold", arguments: accepted)
    func acceptedTexts(_ test: Accepted) throws {
        #expect(try Self.parse(test.text) == test.value)
    }

    @Test("y_object_duplicated_key(_and_value): valid RFC 8259 grammar, rejected by default, kept in order when allowed")
    func duplicateNames() throws {
        // RFC 8259, 4: names SHOULD be unique. The suite accepts duplicates; this reader refuses
        // them unless asked not to, because in a configuration file a duplicate is a mistake.
        let text = #"{"a":"b","a":"c"}"#
        let error = try #require(Self.error(text))
        #expect(error.description == #"line 1, column 10: duplicate member "a" in one object (the first is at line 1, column 2)"#)
        let lenient = JSONReader(rejectsDuplicateNames: false)
        #expect(try lenient.value(parsing: text) == .object([("a", .string("b")), ("a", .string("c"))]))
        #expect(try lenient.value(parsing: #"{"a":"b","a":"b"}"#) == .object([("a", .string("b")), ("a", .string("b"))]))
        // Names are compared octet for octet after unescaping: an escape does not hide a duplicate,
        // and the same name in two objects is no duplicate.
        #expect(Self.error(#"{"é":1,"\u00e9":2}"#)?.reason.hasPrefix("duplicate member") == true)
        #expect(try Self.parse(#"[{"a":1},{"a":2}]"#) == .array([.object([("a", .int(1))]), .object([("a", .int(2))])]))
    }

    @Test("a duplicate is found in a large object too, whether its first use came early or late")
    func duplicateNamesInLargeObjects() throws {
        // Past 16 names the parser keeps them in a table instead of a list; both must find a repeat.
        let names = (0..<40).map { "member\($0)" }
        let members = names.enumerated().map { #""\#($1)":\#($0)"# }
        let object = try Self.parse("{" + members.joined(separator: ",") + "}")
        #expect(object == .object(names.enumerated().map { ($1, .int($0)) }))
        for (count, repeated) in [(10, "member3"), (17, "member16"), (40, "member2"), (40, "member39")] {
            let text = "{" + members.prefix(count).joined(separator: ",") + #","\#(repeated)":0}"#
            let error = try #require(Self.error(text), "\(repeated) after \(count) members")
            #expect(error.reason.hasPrefix("duplicate member \"\(repeated)\""), "\(error)")
        }
    }

    // MARK: n_: rejected, each with its place and what was expected

    struct Rejected: Sendable, CustomTestStringConvertible {
        var name: String
        var octets: [UInt8]
        var line: Int
        var column: Int
        var reason: String
        var testDescription: String { name }

        init(_ name: String, _ text: String, _ line: Int, _ column: Int, _ reason: String) {
            self.init(name, Array(text.utf8), line, column, reason)
        }

        init(_ name: String, _ octets: [UInt8], _ line: Int, _ column: Int, _ reason: String) {
            self.name = name
            self.octets = octets
            self.line = line
            self.column = column
            self.reason = reason
        }
    }

    static let rejected: [Rejected] = [
        // Arrays and objects (RFC 8259, 4, 5)
        .init("n_array_1_true_without_comma", "[1 true]", 1, 4, "expected ',' or ']' after an array element, not 't'"),
        .init("n_array_extra_comma", #"["",]"#, 1, 5, "expected a value after ','; JSON allows no trailing comma"),
        .init("n_array_double_comma", "[1,,2]", 1, 4, "expected a value after ',', not ','"),
        .init("n_array_incomplete", #"["x""#, 1, 5, "expected ',' or ']' after an array element, but the text ends"),
        .init("n_array_just_comma", "[,]", 1, 2, "expected a value or ']', not ','"),
        .init("n_array_colon_instead_of_comma", #"["": 1]"#, 1, 4, "expected ',' or ']' after an array element, not ':'"),
        .init("n_array_newlines_unclosed", "[\"a\",\n4\n,1,", 3, 4, "expected a value after ',', but the text ends"),
        .init("n_object_trailing_comma", #"{"id":0,}"#, 1, 9, "expected a member name (a string) after ','; JSON allows no trailing comma"),
        .init("n_object_missing_colon", #"{"a" b}"#, 1, 6, "expected ':' after the member name, not 'b'"),
        .init("n_object_missing_value", #"{"a":"#, 1, 6, "expected a value after ':', but the text ends"),
        .init("n_object_non_string_key", "{1:1}", 1, 2, "expected a member name (a string) or '}', not '1'"),
        .init("n_object_single_quote", "{'a':0}", 1, 2, "expected a member name (a string) or '}'; JSON strings take double quotes"),
        .init("n_object_unquoted_key", "{a: \"b\"}", 1, 2, "expected a member name (a string) or '}', not 'a'"),
        .init("n_object_comma_instead_of_colon", #"{"x", null}"#, 1, 5, "expected ':' after the member name, not ','"),
        .init("n_object_two_commas_in_a_row", #"{"a":"b",,"c":"d"}"#, 1, 10, "expected a member name (a string) after ',', not ','"),
        .init("n_object_trailing_comment", #"{"a":"b"}/**/"#, 1, 10, "expected the end of the text after the value; JSON has no comments"),
        .init("n_object_trailing_comment_slash_open", #"{"a":"b"}//"#, 1, 10, "expected the end of the text after the value; JSON has no comments"),
        .init("n_structure_object_with_comment", "{\"a\":/*comment*/\"b\"}", 1, 6, "expected a value after ':'; JSON has no comments"),
        .init("n_object_lone_continuation_byte_in_key_and_trailing_comma", [0x7B, 0x22, 0xB9, 0x22, 0x3A, 0x22, 0x30, 0x22, 0x2C, 0x7D], 1, 3,
              "invalid UTF-8: octet 0xB9 cannot start a character"),
        .init("n_object_emoji", "{🇨🇭}", 1, 2, "expected a member name (a string) or '}', not '🇨' (U+1F1E8)"),
        // Numbers (6)
        .init("n_number_01 (leading zero)", "[01]", 1, 2, "a number may not start with 0 followed by more digits"),
        .init("n_number_-01", "[-01]", 1, 2, "a number may not start with 0 followed by more digits"),
        .init("n_number_+1", "[+1]", 1, 2, "expected a value or ']', not '+'"),
        .init("n_number_.2e-3", "[.2e-3]", 1, 2, "expected a value or ']', not '.'"),
        .init("n_number_-", "[-]", 1, 3, "expected a digit after '-'"),
        .init("n_number_minus_space_1", "[- 1]", 1, 3, "expected a digit after '-'"),
        .init("n_number_neg_real_without_int_part", "[-.123]", 1, 3, "expected a digit after '-'"),
        .init("n_number_real_without_fractional_part", "[1.]", 1, 4, "expected a digit after '.'"),
        .init("n_number_2.e3", "[2.e3]", 1, 4, "expected a digit after '.'"),
        .init("n_number_1.0e", "[1.0e]", 1, 6, "expected a digit in the exponent"),
        .init("n_number_0_capital_E+", "[0E+]", 1, 5, "expected a digit in the exponent"),
        .init("n_number_hex_1_digit", "[0x1]", 1, 3, "expected ',' or ']' after an array element, not 'x'"),
        .init("n_number_infinity", "[Infinity]", 1, 2, "expected a value or ']', not 'I'"),
        .init("n_number_NaN", "[NaN]", 1, 2, "expected a value or ']', not 'N'"),
        .init("n_number_with_alpha", "[1.2a-3]", 1, 5, "expected ',' or ']' after an array element, not 'a'"),
        .init("n_multidigit_number_then_00", [0x31, 0x32, 0x33, 0x00], 1, 4, "expected the end of the text after the value, not U+0000"),
        // Literals (3)
        .init("n_incomplete_false", "[fals]", 1, 2, "expected 'false'"),
        .init("n_incomplete_null", "[nul", 1, 2, "expected 'null'"),
        .init("n_structure_capitalized_True", "[True]", 1, 2, "expected a value or ']', not 'T'"),
        .init("n_object_repeated_null_null", "{null:null,null:null}", 1, 2, "expected a member name (a string) or '}', not 'n'"),
        // Strings (7, 8.1)
        .init("n_string_single_quote", "['single quote']", 1, 2, "expected a value or ']'; JSON strings take double quotes"),
        .init("n_string_unescaped_tab", "[\"\t\"]", 1, 3, "control character U+0009 in a string; write it as an escape such as \\n, \\t or \\u00XX"),
        .init("n_string_unescaped_newline", "[\"new\nline\"]", 1, 6,
              "control character U+000A in a string; write it as an escape (\\n), or close the string before the line ends"),
        .init("n_string_unescaped_ctrl_char", [0x5B, 0x22, 0x61, 0x00, 0x61, 0x22, 0x5D], 1, 4,
              "control character U+0000 in a string; write it as an escape such as \\n, \\t or \\u00XX"),
        .init("n_string_escape_x", #"["\x00"]"#, 1, 3, #"\x is not an escape; JSON has \" \\ \/ \b \f \n \r \t and \uXXXX"#),
        .init("n_string_escaped_emoji", "[\"\\🌀\"]", 1, 3, #"a backslash followed by '🌀' (U+1F300) is not an escape; JSON has \" \\ \/ \b \f \n \r \t and \uXXXX"#),
        .init("n_string_invalid_unicode_escape", #"["\uqqqq"]"#, 1, 3, "expected four hexadecimal digits after \\u"),
        .init("n_string_incomplete_escaped_character", #"["\u00A"]"#, 1, 3, "expected four hexadecimal digits after \\u"),
        .init("n_string_incomplete_escape", #"["\"]"#, 1, 2, "the string that starts here has no closing '\"'"),
        .init("n_string_no_quotes_with_bad_escape", #"[\n]"#, 1, 2, "expected a value or ']', not '\\'"),
        .init("n_string_single_doublequote", "\"", 1, 1, "the string that starts here has no closing '\"'"),
        .init("n_string_1_surrogate_then_escape", #"["\uD800\"]"#, 1, 3, #"\uD800 is a high surrogate not followed by a low surrogate (\uDC00...\uDFFF)"#),
        .init("n_string_backslash_00", [0x5B, 0x22, 0x5C, 0x00, 0x22, 0x5D], 1, 3, #"a backslash followed by U+0000 is not an escape; JSON has \" \\ \/ \b \f \n \r \t and \uXXXX"#),
        .init("n_string_accentuated_char_no_quotes", "[é]", 1, 2, "expected a value or ']', not 'é' (U+00E9)"),
        // Structure (2)
        .init("n_structure_no_data", "", 1, 1, "expected a value, but the text ends"),
        .init("n_single_space", " ", 1, 2, "expected a value, but the text ends"),
        .init("n_structure_double_array", "[][]", 1, 3, "expected the end of the text after the value, not '['"),
        .init("n_structure_end_array", "]", 1, 1, "expected a value, not ']'"),
        .init("n_structure_lone-open-bracket", "[", 1, 2, "expected a value or ']', but the text ends"),
        .init("n_structure_unclosed_object", #"{"asd":"asd""#, 1, 13, "expected ',' or '}' after an object member, but the text ends"),
        .init("n_structure_object_followed_by_closing_object", "{}}", 1, 3, "expected the end of the text after the value, not '}'"),
        .init("n_structure_trailing_#", #"{"a":"b"}#{}"#, 1, 10, "expected the end of the text after the value, not '#'"),
        .init("n_structure_whitespace_formfeed", "[\u{C}]", 1, 2, "expected a value or ']', not U+000C"),
        .init("n_array_spaces_vertical_tab_formfeed", "[\u{B}\"a\"]", 1, 2, "expected a value or ']', not U+000B"),
        .init("n_structure_U+2060_word_joined", "[\u{2060}]", 1, 2, "expected a value or ']', not U+2060"),
        .init("n_structure_whitespace_U+00A0_no-break_space", "[\u{A0}1]", 1, 2, "expected a value or ']', not U+00A0"),
        .init("n_structure_null-byte-outside-string", [0x5B, 0x00, 0x5D], 1, 2, "expected a value or ']', not U+0000"),
        .init("n_structure_angle_bracket_null", "[<null>]", 1, 2, "expected a value or ']', not '<'"),
        .init("n_structure_UTF8_BOM_no_data", [0xEF, 0xBB, 0xBF], 1, 1, "expected a value, but the text ends"),
        .init("n_structure_comma_instead_of_closing_brace", #"{"x": true,"#, 1, 12, "expected a member name (a string) after ',', but the text ends"),
    ]

    @Test("n_: texts that are not JSON fail at the right line and column, saying what was expected", arguments: rejected)
    func rejectedTexts(_ test: Rejected) throws {
        let error = try #require(Self.error(test.octets), "\(test.name) parsed")
        #expect(error.position.line == test.line)
        #expect(error.position.column == test.column)
        #expect(error.reason == test.reason)
    }

    @Test("n_structure_100000_opening_arrays and n_structure_open_array_object: the depth limit, not the stack, stops them")
    func hostileNesting() throws {
        let arrays = try #require(Self.error(String(repeating: "[", count: 100_000)))
        #expect(arrays.description == "line 1, column 513: more than 512 nested arrays and objects")
        let objects = try #require(Self.error(String(repeating: #"[{"":"#, count: 50_000)))
        #expect(objects.position.column == 5 * 256 + 1)
        // A lower limit is honoured exactly: depth 3 reads, depth 4 does not.
        let shallow = JSONReader(maximumDepth: 3)
        #expect(try shallow.value(parsing: "[[[]]]") == .array([.array([.array([])])]))
        #expect(throws: JSONSyntaxError(position: JSONSourcePosition(line: 1, column: 4, offset: 3),
                                        reason: "more than 3 nested arrays and objects")) {
            try shallow.value(parsing: "[[[[]]]]")
        }
    }

    // MARK: i_: the implementation's choices (documented in JSONReader and docs/gatt-database-json.md)

    @Test("i_structure_500_nested_arrays: accepted, as the limit is 512")
    func fiveHundredNested() throws {
        var value = try Self.parse(String(repeating: "[", count: 500) + String(repeating: "]", count: 500))
        var depth = 0
        while case .array(let items) = value {
            depth += 1
            guard let first = items.first else { break }
            value = first
        }
        #expect(depth == 500)
    }

    @Test("i_number_*: integers beyond Int become doubles; overflow is an error; underflow is 0")
    func numberChoices() throws {
        // i_number_too_big_pos_int, i_number_too_big_neg_int, i_number_very_big_negative_int: the nearest double.
        #expect(try Self.parse("[100000000000000000000]") == .array([.double(1e20)]))
        #expect(try Self.parse("[-123123123123123123123123123123]") == .array([.double(-123123123123123123123123123123.0)]))
        #expect(try Self.parse("9223372036854775808") == .double(9223372036854775808.0))
        // i_number_double_huge_neg_exp, i_number_real_underflow: too small to represent, so 0.
        #expect(try Self.parse("[123.456e-789]") == .array([.double(0)]))
        #expect(try Self.parse("[123e-10000000]") == .array([.double(0)]))
        // i_number_huge_exp, i_number_neg_int_huge_exp, i_number_pos_double_huge_exp,
        // i_number_real_neg_overflow, i_number_real_pos_overflow: beyond a double, an error at the number.
        for text in ["[0.4e0066999999999999999999999999999999999999999999999999999999999]", "[-1e+9999]", "[1.5e+9999]",
                     "[-123123e100000]", "[123123e100000]"] {
            let error = try #require(Self.error(text), "\(text) parsed")
            #expect(error.description == "line 1, column 2: the number is beyond the range of a 64-bit floating-point value")
        }
    }

    @Test("i_string_* surrogates: a lone, reversed or unfinished surrogate escape is an error")
    func surrogateChoices() {
        let cases: [(name: String, text: String, column: Int, reason: String)] = [
            ("i_string_1st_surrogate_but_2nd_missing", #"["\uDADA"]"#, 3, #"\uDADA is a high surrogate not followed by a low surrogate (\uDC00...\uDFFF)"#),
            ("i_string_1st_valid_surrogate_2nd_invalid", #"["\uD888\u1234"]"#, 3, #"\uD888 is a high surrogate not followed by a low surrogate (\uDC00...\uDFFF)"#),
            ("i_string_incomplete_surrogate_pair", #"["\uDd1ea"]"#, 3, #"\uDD1E is a low surrogate without a high surrogate before it"#),
            ("i_string_incomplete_surrogates_escape_valid", #"["\uD800\uD800\n"]"#, 3, #"\uD800 is a high surrogate not followed by a low surrogate (\uDC00...\uDFFF)"#),
            ("i_string_invalid_lonely_surrogate", #"["\ud800"]"#, 3, #"\uD800 is a high surrogate not followed by a low surrogate (\uDC00...\uDFFF)"#),
            ("i_string_inverted_surrogates_U+1D11E", #"["\uDd1e\uD834"]"#, 3, #"\uDD1E is a low surrogate without a high surrogate before it"#),
            ("i_string_lone_second_surrogate", #"["\uDFAA"]"#, 3, #"\uDFAA is a low surrogate without a high surrogate before it"#),
            ("i_object_key_lone_2nd_surrogate", #"{"\uDFAA":0}"#, 3, #"\uDFAA is a low surrogate without a high surrogate before it"#),
            ("i_string_incomplete_surrogate_and_escape_valid", #"["\uD800\n"]"#, 3, #"\uD800 is a high surrogate not followed by a low surrogate (\uDC00...\uDFFF)"#),
        ]
        for test in cases {
            let error = Self.error(test.text)
            #expect(error?.position.column == test.column, "\(test.name)")
            #expect(error?.reason == test.reason, "\(test.name)")
        }
    }

    @Test("i_string_* encodings: text that is not valid UTF-8 is an error at the first bad octet")
    func encodingChoices() {
        let invalid = "invalid UTF-8: the sequence that starts with 0x"
        let cases: [(name: String, octets: [UInt8], column: Int, reason: String)] = [
            ("i_string_invalid_utf-8", [0x5B, 0x22, 0xFF, 0x22, 0x5D], 3, "invalid UTF-8: octet 0xFF cannot start a character"),
            ("i_string_iso_latin_1", [0x5B, 0x22, 0xE9, 0x22, 0x5D], 3, invalid + "E9 is cut short or malformed"),
            ("i_string_lone_utf8_continuation_byte", [0x5B, 0x22, 0x81, 0x22, 0x5D], 3, "invalid UTF-8: octet 0x81 cannot start a character"),
            ("i_string_not_in_unicode_range", [0x5B, 0x22, 0xF4, 0xBF, 0xBF, 0xBF, 0x22, 0x5D], 3, invalid + "F4 is cut short or malformed"),
            ("i_string_overlong_sequence_2_bytes", [0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D], 3, "invalid UTF-8: octet 0xC0 cannot start a character"),
            ("i_string_overlong_sequence_6_bytes", [0x5B, 0x22, 0xFC, 0x83, 0xBF, 0xBF, 0xBF, 0xBF, 0x22, 0x5D], 3,
             "invalid UTF-8: octet 0xFC cannot start a character"),
            ("i_string_overlong 3 bytes", [0x5B, 0x22, 0xE0, 0x80, 0xAF, 0x22, 0x5D], 3, invalid + "E0 is cut short or malformed"),
            ("i_string_truncated-utf-8", [0x5B, 0x22, 0xE0, 0xFF, 0x22, 0x5D], 3, invalid + "E0 is cut short or malformed"),
            ("i_string_UTF8_surrogate_U+D800", [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], 3, invalid + "ED is cut short or malformed"),
            ("i_string_UTF-8_invalid_sequence", [0x5B, 0x22, 0xE6, 0x97, 0xA5, 0xD1, 0x88, 0xFA, 0x22, 0x5D], 5,
             "invalid UTF-8: octet 0xFA cannot start a character"),
            ("i_string_utf16BE_no_BOM", [0x00, 0x5B, 0x00, 0x22, 0x00, 0xE9, 0x00, 0x22, 0x00, 0x5D], 1, "expected a value, not U+0000"),
            ("i_string_utf16LE_no_BOM", [0x5B, 0x00, 0x22, 0x00, 0xE9, 0x00, 0x22, 0x00, 0x5D, 0x00], 2, "expected a value or ']', not U+0000"),
            ("i_string_UTF-16LE_with_BOM", [0xFF, 0xFE, 0x5B, 0x00, 0x22, 0x00, 0xE9, 0x00, 0x22, 0x00, 0x5D, 0x00], 1,
             "expected a value, not octet 0xFF"),
        ]
        for test in cases {
            let error = Self.error(test.octets)
            #expect(error?.position.column == test.column, "\(test.name)")
            #expect(error?.reason == test.reason, "\(test.name)")
        }
    }

    @Test("i_structure_UTF-8_BOM_empty_object: a UTF-8 byte order mark at the start is skipped (RFC 8259, 8.1)")
    func byteOrderMark() throws {
        #expect(try Self.parse([0xEF, 0xBB, 0xBF, 0x7B, 0x7D]) == .object([]))
        // Columns on the first line count from after the mark; a mark anywhere else is an error.
        #expect(Self.error([0xEF, 0xBB, 0xBF, 0x5B, 0x2C, 0x5D])?.position == JSONSourcePosition(line: 1, column: 2, offset: 4))
        #expect(Self.error([0x5B, 0xEF, 0xBB, 0xBF, 0x5D])?.reason == "expected a value or ']', not U+FEFF")
    }

    // MARK: Positions

    @Test("lines count line feeds (CR LF is one line end); columns count Unicode scalars")
    func positions() throws {
        let text = "{\r\n  \"name\": \"é€𝄞\",\r\n  \"next\": 1\r\n  \"last\": 2\r\n}"
        let error = try #require(Self.error(text))
        #expect(error.description == "line 4, column 3: expected ',' or '}' after an object member, not '\"'")
        #expect(Self.error("[\"é€𝄞\" 1]")?.position == JSONSourcePosition(line: 1, column: 8, offset: 13))
    }

    @Test("a document gives where every value starts, by its path")
    func document() throws {
        let document = try JSONReader().document(parsing: Array("""
            {
              "services": [
                { "uuid": "180D", "characteristics": [] },
                { "uuid": "180F",
                  "handle": 16 }
              ]
            }
            """.utf8))
        #expect(document.position(of: []) == JSONSourcePosition(line: 1, column: 1, offset: 0))
        #expect(document.position(of: [.member("services")])?.description == "line 2, column 15")
        #expect(document.position(of: [.member("services"), .index(1)])?.description == "line 4, column 5")
        #expect(document.position(of: [.member("services"), .index(1), .member("handle")])?.description == "line 5, column 17")
        #expect(document.position(of: [.member("services"), .index(0), .member("characteristics")])?.description == "line 3, column 42")
        #expect(document.position(of: [.member("services"), .index(2)]) == nil)
        #expect(document.positions.count == 8)
        #expect(JSONPath([.member("services"), .index(1), .member("handle")]).description == "services[1].handle")
        // Columns are counted on from the last value, so a long one-line text stays linear.
        let long = "[" + Array(repeating: "1", count: 100_000).joined(separator: ",") + "]"
        let positions = try JSONReader().document(parsing: Array(long.utf8))
        #expect(positions.position(of: [.index(99_999)]) == JSONSourcePosition(line: 1, column: 2 * 99_999 + 2, offset: 2 * 99_999 + 1))
        let small = #"{"a": [1, {"b": null}]}"#
        #expect(try JSONReader().value(parsing: small) == JSONReader().document(parsing: Array(small.utf8)).value)
    }

    @Test("what JSONValue writes, JSONReader reads back to the same value")
    func roundTrip() throws {
        let value = JSONValue.object([
            ("text", .string("a\"b\\c\n\u{01}é𝄞\u{7F}")), ("list", .array([.null, .bool(false), .int(-7), .double(0.25)])),
            ("nested", .object([("", .array([.array([])]))])), ("max", .int(.min)),
        ])
        #expect(try Self.parse(value.description) == value)
    }

    @Test("1,000 seeded mutations of a JSON text parse or fail with a position inside the text (seed 0x15)")
    func mutations() {
        let original = Array(#"{"a": [1, -2.5e3, "x\u00e9\n", true, null, {"b": {}}], "c": "€"}"#.utf8)
        let alphabet = Array(#"{}[]":,.-+eE0123456789\/u'"#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xE2, 0xF0, 0xFF]
        var rng = SplitMix64(seed: 0x15)
        var parsed = 0, failed = 0
        for _ in 0..<1_000 {
            var text = original
            for _ in 0..<(1 + rng.next() % 3) {
                let position = Int(rng.next() % UInt64(text.count))
                switch rng.next() % 3 {
                case 0: text[position] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                case 1: text.remove(at: position)
                default: text.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: position)
                }
            }
            do {
                let value = try Self.parse(text)
                // Whatever parses writes back to text that parses to the same value.
                #expect(try Self.parse(value.description) == value)
                parsed += 1
            } catch {
                #expect(error.position.offset <= text.count)
                #expect(error.position.line >= 1 && error.position.column >= 1)
                #expect(!error.reason.isEmpty)
                failed += 1
            }
        }
        #expect(parsed > 0)
        #expect(failed > 0)
    }
}
