//! PICO-8's Lua dialect to standard Lua 5.4, line for line: every line of the output is the
//! same line of the input, so an error at line N of the translation is at line N of the
//! cart's code (and at `.p8` line `lua_line + N - 1`). Comments and layout are kept.
//!
//! What is rewritten:
//! - compound assignments (`a += b`, also `-= *= /= %= ^= ..= \=`) become `a = a + (b)`;
//!   the bitwise ones (`&= |= ^^= <<= >>= >>>= <<>= >><=`) `a = band(a, b)`...;
//! - the bitwise operators are calls of the PICO-8 layer's functions, which work on all 32
//!   bits of PICO-8's 16.16 numbers: `a & b` is `band(a, b)`, `|` `bor`, `^^` (and binary
//!   `~`) `bxor`, unary `~` `bnot`, `<<` `shl`, `>>` `shr`, `>>>` `lshr`, `<<>` `rotl`, `>><`
//!   `rotr`, their operands found with PICO-8's priorities (`parse::BINARY_PRIORITY`);
//! - the one-line `if (cond) statements [else statements]` and `while (cond) statements`
//!   get their `then ... end` / `do ... end`;
//! - `!=` is `~=`, `\` (integer division) is `//`;
//! - `//` starts a comment, as in PICO-8 (`--` in Lua);
//! - `?expr, ...` at the start of a statement is `print(expr, ...)`;
//! - `@a`, `%a`, `$a` are `peek(a)`, `peek2(a)`, `peek4(a)`;
//! - numbers: binary literals (`0b1010.1`) and hex literals past 0x7fff are written as the
//!   16.16 value PICO-8 reads (`0xffff` is -1);
//! - the glyphs outside strings are the numbers PICO-8 gives them: the buttons (⬅️ ➡️ ⬆️ ⬇️
//!   🅾️ ❎) 0-5, the fill patterns (▒ ░ ...) their `fillp` values.
//!
//! What cannot be translated is refused with its line and the feature: `#include` (handled
//! by the importer, which reads the file beside the cart), an operator without its operands,
//! and any other non-ASCII character in the code outside strings.

use std::collections::HashMap;
use std::fmt;

use kairo_core::pico8::charset::GLYPH_VALUES;

mod lex;
mod parse;
mod uses;

pub use uses::missing_uses;

use lex::{Kind, Token, error, glyph_at, tokenize};
use parse::{Parser, STATEMENT_WORDS};

/// Why a line could not be translated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LuaError {
    /// The line of the code, 1-based.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for LuaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for LuaError {}

/// Writes a PICO-8 number as the value PICO-8 reads (binary literals, and hex past 0x7fff,
/// wrap into 16.16); others as written.
fn number(text: &str, line: usize) -> Result<String, LuaError> {
    let lower = text.to_ascii_lowercase();
    let (radix, digits) = if let Some(d) = lower.strip_prefix("0b") {
        (2, d)
    } else if let Some(d) = lower.strip_prefix("0x") {
        (16, d)
    } else {
        return Ok(text.to_string());
    };
    if radix == 16 && digits.contains('p') {
        return Ok(text.to_string());
    }
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let bad = || error(line, format!("`{text}` is not a number"));
    let int_value = if int.is_empty() {
        0
    } else {
        u64::from_str_radix(int, radix).map_err(|_| bad())?
    };
    let mut value = (int_value & 0xFFFF) as f64;
    let mut scale = 1.0 / f64::from(radix);
    for d in frac.chars() {
        value += f64::from(d.to_digit(radix).ok_or_else(bad)?) * scale;
        scale /= f64::from(radix);
    }
    // Only 16 bits of fraction count.
    value = (value * 65536.0).floor() / 65536.0;
    if value >= 32768.0 {
        value -= 65536.0;
    }
    if radix == 16 && int_value <= 0x7FFF {
        // Lua 5.4 reads hex fractions the same way.
        return Ok(text.to_string());
    }
    Ok(if value.fract() == 0.0 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    })
}

/// A quoted string with PICO-8's own escapes (the P8SCII control codes `\*` 1, `\#` 2, `\-`
/// 3, `\|` 4, `\+` 5, `\^` 6) written as Lua's three-digit escapes.
fn p8scii_escapes(quoted: &str) -> String {
    let mut out = String::with_capacity(quoted.len());
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(e) if "*#-|+^".contains(e) => {
                let code = "*#-|+^".find(e).expect("listed") + 1;
                out.push_str(&format!("\\{code:03}"));
            }
            Some(e) => {
                out.push('\\');
                out.push(e);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// What an assignment operator stands for: a Lua operator (`a += b` is `a = a + (b)`), or
/// one of the PICO-8 layer's functions (`a &= b` is `a = band(a, b)`).
#[derive(Clone, Copy)]
enum Compound {
    Operator(&'static str),
    Function(&'static str),
}

fn compound(op: &str) -> Option<Compound> {
    use Compound::{Function, Operator};
    Some(match op {
        "+=" => Operator("+"),
        "-=" => Operator("-"),
        "*=" => Operator("*"),
        "/=" => Operator("/"),
        "%=" => Operator("%"),
        "^=" => Operator("^"),
        "..=" => Operator(".."),
        "\\=" => Operator("//"),
        // Not `~=`, which compares.
        "&=" | "|=" | "^^=" | "<<=" | ">>=" | ">>>=" | "<<>=" | ">><=" => {
            Function(bitwise(op.strip_suffix('=').expect("listed"))?)
        }
        _ => return None,
    })
}

/// The PICO-8 layer's function a binary bitwise operator is: they work on all 32 bits of
/// PICO-8's 16.16 numbers, which Lua's operators cannot (they refuse fractions).
fn bitwise(op: &str) -> Option<&'static str> {
    Some(match op {
        "&" => "band",
        "|" => "bor",
        "^^" | "~" => "bxor",
        "<<" => "shl",
        ">>" => "shr",
        ">>>" => "lshr",
        "<<>" => "rotl",
        ">><" => "rotr",
        _ => return None,
    })
}

/// Text written before token `at` of the code. `start..end` is the construct it opens or
/// closes; `rank` orders constructs of the same span (a lower rank is the outer one).
struct Insert {
    at: usize,
    start: usize,
    end: usize,
    rank: u8,
    opens: bool,
    text: String,
}

impl Insert {
    fn open(at: usize, end: usize, rank: u8, text: impl Into<String>) -> Insert {
        let text = text.into();
        Insert {
            at,
            start: at,
            end,
            rank,
            opens: true,
            text,
        }
    }

    fn close(start: usize, at: usize, rank: u8, text: impl Into<String>) -> Insert {
        let text = text.into();
        Insert {
            at,
            start,
            end: at,
            rank,
            opens: false,
            text,
        }
    }

    /// At one place, what closes comes before what opens; the inner construct closes first
    /// and opens last.
    fn order(&self, other: &Insert) -> std::cmp::Ordering {
        self.at
            .cmp(&other.at)
            .then(self.opens.cmp(&other.opens))
            .then_with(|| {
                if self.opens {
                    // The outer first: the later end, then the lower rank.
                    other.end.cmp(&self.end).then(self.rank.cmp(&other.rank))
                } else {
                    // The inner first: the later start, then the higher rank.
                    other
                        .start
                        .cmp(&self.start)
                        .then(other.rank.cmp(&self.rank))
                }
            })
    }
}

/// Translates PICO-8 Lua to Lua 5.4, line for line.
pub fn translate(source: &str) -> Result<String, LuaError> {
    translate_with(source, false)
}

/// Translates PICO-8 Lua to Lua 5.4 on one line (comments left out, long strings quoted):
/// an `#include`d file, textually in place of its `#include` line as PICO-8 reads it, with
/// the lines of the including file where they were. Lua reads code the same across lines
/// and on one.
pub fn translate_joined(source: &str) -> Result<String, LuaError> {
    translate_with(source, true)
}

/// A long string (`[[...]]`, `[==[...]==]`) as a quoted string with the same value.
fn quoted(long: &str) -> String {
    let level = long[1..].bytes().take_while(|&b| b == b'=').count();
    let body = &long[level + 2..long.len() - level - 2];
    // Lua skips a newline right after the opening bracket.
    let body = body
        .strip_prefix("\r\n")
        .or_else(|| body.strip_prefix('\n'))
        .unwrap_or(body);
    let mut out = String::from("\"");
    for c in body.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn translate_with(source: &str, joined: bool) -> Result<String, LuaError> {
    let mut tokens = tokenize(source)?;
    if let Some(line) = source
        .lines()
        .position(|l| l.trim_start().starts_with("#include"))
    {
        return Err(error(
            line + 1,
            "`#include` is read by the importer, not here",
        ));
    }
    // Token by token replacements that need no parsing.
    for t in tokens.iter_mut() {
        match t.kind {
            Kind::Comment if t.text.starts_with("//") => t.text.replace_range(..2, "--"),
            Kind::Op if t.text == "!=" => t.text = "~=".into(),
            Kind::Op if t.text == "\\" => t.text = "//".into(),
            Kind::Number => t.text = number(&t.text, t.line)?,
            Kind::Str if !t.text.starts_with('[') => t.text = p8scii_escapes(&t.text),
            Kind::Name => {
                if let Some((_, value)) = glyph_at(&t.text) {
                    t.text = number(value, t.line)?;
                    t.kind = Kind::Number;
                }
            }
            _ => {}
        }
    }
    let mut inserts: Vec<Insert> = Vec::new();
    let mut replace: HashMap<usize, String> = HashMap::new();
    // Compound assignments: (operator index, target tokens, text before and after the
    // target), written once the target's own rewriting is known.
    let mut targets: Vec<(usize, std::ops::Range<usize>, String, String)> = Vec::new();
    let parser = Parser { tokens: &tokens };
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        match (t.kind, t.text.as_str()) {
            (Kind::Op, op) if compound(op).is_some() => {
                let start = statement_target(&parser, i)?;
                let mut target_end = i;
                while target_end > start && tokens[target_end - 1].kind == Kind::Space {
                    target_end -= 1;
                }
                let rhs = parser.skip(i + 1, false);
                let end = parser.expression(rhs)?;
                match compound(op).expect("checked") {
                    Compound::Operator(binary) => {
                        targets.push((i, start..target_end, "= ".into(), format!(" {binary}")));
                        inserts.push(Insert::open(rhs, end, 0, "("));
                    }
                    Compound::Function(f) => {
                        targets.push((i, start..target_end, format!("= {f}("), ",".into()));
                    }
                }
                inserts.push(Insert::close(i, end, 0, ")"));
            }
            // `?` is no Lua operator: wherever it is, it prints the rest of the line.
            (Kind::Op, "?") => {
                replace.entry(i).or_insert("print(".into());
                let end = line_end(&tokens, i);
                inserts.push(Insert::close(i, end, 0, ")"));
            }
            (Kind::Op, "@" | "%" | "$") if parser.is_unary(i) => {
                let f = match t.text.as_str() {
                    "@" => "peek",
                    "%" => "peek2",
                    _ => "peek4",
                };
                let operand = parser.skip(i + 1, false);
                let end = parser.suffixed(operand)?;
                replace.entry(i).or_insert(format!("{f}("));
                inserts.push(Insert::close(i, end, 0, ")"));
            }
            // The bitwise operators are the layer's functions: `a & b` is `band(a, b)`.
            (Kind::Op, "~") if parser.is_unary(i) => {
                let end = parser.operand(i)?;
                replace.entry(i).or_insert("bnot(".into());
                if tokens.get(i + 1).is_some_and(|t| t.kind == Kind::Space) {
                    replace.entry(i + 1).or_default();
                }
                inserts.push(Insert::close(i, end, 1, ")"));
            }
            (Kind::Op, op) if bitwise(op).is_some() => {
                let (left, right) = parser.binary_at(i).expect("a binary operator");
                let start = parser.left_operand_start(i, left)?;
                let operand = parser.skip(i + 1, false);
                if operand >= tokens.len() {
                    return Err(error(t.line, format!("`{op}` has no operand after it")));
                }
                let end = parser.expression_above(operand, right)?;
                inserts.push(Insert::open(
                    start,
                    end,
                    1,
                    format!("{}(", bitwise(op).expect("checked")),
                ));
                replace.entry(i).or_insert(",".into());
                // `a & b` is `band(a, b)`; indentation stays.
                let indent = i < 2 || tokens[i - 2].kind == Kind::Newline;
                if i > 0 && tokens[i - 1].kind == Kind::Space && !indent {
                    replace.entry(i - 1).or_default();
                }
                inserts.push(Insert::close(start, end, 1, ")"));
            }
            (Kind::Name, word @ ("if" | "while")) => {
                if let Some((close, end)) = shorthand(&parser, i)? {
                    let (open_word, close_word) = if word == "if" {
                        ("then", "end")
                    } else {
                        ("do", "end")
                    };
                    let spaced = tokens.get(close).is_some_and(|t| t.kind == Kind::Space);
                    let gap = if spaced { "" } else { " " };
                    inserts.push(Insert::close(i, close, 0, format!(" {open_word}{gap}")));
                    inserts.push(Insert::close(i, end, 0, format!(" {close_word}")));
                }
            }
            _ => {}
        }
        i += 1;
    }
    inserts.sort_by(Insert::order);
    let render = |replace: &HashMap<usize, String>, range, whole| {
        Render {
            tokens: &tokens,
            inserts: &inserts,
            replace,
            joined,
        }
        .range(range, whole)
    };
    // A compound assignment's target, written again on its right, as rewritten.
    let written: Vec<(usize, String)> = targets
        .into_iter()
        .map(|(op, target, before, after)| {
            (
                op,
                format!("{before}{}{after}", render(&replace, target, false)),
            )
        })
        .collect();
    replace.extend(written);
    Ok(render(&replace, 0..tokens.len(), true))
}

/// The translation written out: the tokens with their replacements and insertions.
struct Render<'a> {
    tokens: &'a [Token],
    /// Sorted by [`Insert::order`].
    inserts: &'a [Insert],
    replace: &'a HashMap<usize, String>,
    joined: bool,
}

impl Render<'_> {
    /// The tokens of `range` with what is inserted inside it (and after it when `whole`).
    fn range(&self, range: std::ops::Range<usize>, whole: bool) -> String {
        let mut out = String::new();
        let first = self.inserts.partition_point(|x| x.at <= range.start);
        let first = if whole {
            0
        } else {
            // Inside the range only: not what opens or closes at its first token.
            first
        };
        let mut inserts = self.inserts[first..].iter().peekable();
        for i in range.clone() {
            let t = &self.tokens[i];
            while let Some(x) = inserts.next_if(|x| x.at == i) {
                out.push_str(&x.text);
            }
            // `1or` is two tokens in PICO-8; Lua needs them apart.
            if i > range.start && self.tokens[i - 1].kind == Kind::Number && t.kind == Kind::Name {
                out.push(' ');
            }
            match self.replace.get(&i) {
                Some(text) => out.push_str(text),
                None if self.joined && matches!(t.kind, Kind::Comment | Kind::Newline) => {
                    out.push(' ')
                }
                None if self.joined && t.kind == Kind::Str && t.text.starts_with('[') => {
                    out.push_str(&quoted(&t.text))
                }
                None => out.push_str(&t.text),
            }
        }
        if whole {
            for x in inserts {
                out.push_str(&x.text);
            }
        }
        out
    }
}

/// Where the assignment target ending before `op` starts: a name with `.name` and `[...]`
/// suffixes.
fn statement_target(parser: &Parser, op: usize) -> Result<usize, LuaError> {
    let line = parser.tokens[op].line;
    let mut i = op;
    // Back over layout.
    while i > 0 && matches!(parser.kind(i - 1), Some(Kind::Space)) {
        i -= 1;
    }
    loop {
        if i == 0 {
            return Err(error(line, "an assignment with nothing to assign to"));
        }
        match (parser.kind(i - 1), parser.text(i - 1)) {
            (Some(Kind::Op), "]") => {
                let mut depth = 0;
                let mut j = i - 1;
                loop {
                    match parser.text(j) {
                        "]" => depth += 1,
                        "[" => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    if j == 0 {
                        return Err(error(line, "`]` without `[`"));
                    }
                    j -= 1;
                }
                i = j;
            }
            (Some(Kind::Name), word) if !STATEMENT_WORDS.contains(&word) => {
                i -= 1;
                if i > 0 && matches!(parser.text(i - 1), "." | ":") {
                    i -= 1;
                } else {
                    return Ok(i);
                }
            }
            (Some(Kind::Op), ")") => {
                return Err(error(line, "a compound assignment to a call's result"));
            }
            _ => {
                return Err(error(
                    line,
                    "a compound assignment needs a variable or field before it",
                ));
            }
        }
    }
}

/// The index of the newline (or comment, or the end) that ends the line of token `i`.
fn line_end(tokens: &[Token], i: usize) -> usize {
    let mut end = i;
    while let Some(t) = tokens.get(end) {
        if t.kind == Kind::Newline || (t.kind == Kind::Comment && !t.text.contains('\n')) {
            break;
        }
        end += 1;
    }
    // Before trailing spaces.
    while end > i && tokens[end - 1].kind == Kind::Space {
        end -= 1;
    }
    end
}

/// For `if`/`while` at `i`: when it is PICO-8's one-line form (a parenthesised condition and
/// no `then`/`do` on the line), the index after the `)` and the end of the line.
fn shorthand(parser: &Parser, i: usize) -> Result<Option<(usize, usize)>, LuaError> {
    let open = parser.skip(i + 1, true);
    if parser.text(open) != "(" {
        return Ok(None);
    }
    let cond_end = parser.expression(open)?;
    let after = parser.skip(cond_end, true);
    let word = if parser.text(i) == "if" { "then" } else { "do" };
    // `then`/`do` next, or nothing more on the line: the ordinary form.
    if parser.text(after) == word || matches!(parser.kind(after), Some(Kind::Newline) | None) {
        return Ok(None);
    }
    // The condition must be the parenthesis alone (PICO-8's rule), and the line must hold no
    // `then`/`do` of its own further on.
    let close = parser.close(open)?;
    if close != cond_end {
        return Ok(None);
    }
    let end = line_end(parser.tokens, i);
    let mut depth = 0;
    for j in after..end {
        if parser.kind(j) != Some(Kind::Name) {
            continue;
        }
        match parser.text(j) {
            "function" | "do" | "then" | "repeat" => depth += 1,
            "end" | "until" => depth -= 1,
            w if w == word && depth == 0 => return Ok(None),
            _ => {}
        }
    }
    Ok(Some((close, end)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lua(source: &str) -> String {
        translate(source).unwrap_or_else(|e| panic!("{source}: {e}"))
    }

    #[test]
    fn compound_assignments_take_their_whole_right_side() {
        assert_eq!(lua("x += 1"), "x = x + (1)");
        assert_eq!(
            lua("a.b[i+1].c -= f(2) * 3 y = 2"),
            "a.b[i+1].c = a.b[i+1].c - (f(2) * 3) y = 2"
        );
        assert_eq!(lua("s ..= \"!\""), "s = s .. (\"!\")");
        assert_eq!(lua("if c then n \\= 2 end"), "if c then n = n // (2) end");
        assert_eq!(lua("v ^^= 3"), "v = bxor(v, 3)");
        assert_eq!(lua("t[i].f >>>= n + 1"), "t[i].f = lshr(t[i].f, n + 1)");
        assert_eq!(lua("t[a&1] |= 2"), "t[band(a,1)] = bor(t[band(a,1)], 2)");
        assert_eq!(lua("t[@a] += 1"), "t[peek(a)] = t[peek(a)] + (1)");
        assert_eq!(lua("x += a & b"), "x = x + (band(a, b))");
        assert_eq!(lua("if(c)x<<>=1"), "if(c) then x= rotl(x,1) end");
    }

    #[test]
    fn one_line_ifs_and_whiles_get_their_words() {
        assert_eq!(lua("if (a) b=1"), "if (a) then b=1 end");
        assert_eq!(lua("if(c<4)x,y=a,b"), "if(c<4) then x,y=a,b end");
        assert_eq!(
            lua("if(c)z+=1?\"!\""),
            "if(c) then z= z +(1)print(\"!\") end"
        );
        assert_eq!(
            lua("if (a) b=1 else b=2 -- note"),
            "if (a) then b=1 else b=2 end -- note"
        );
        assert_eq!(lua("while (i<3) i+=1"), "while (i<3) do i= i +(1) end");
        assert_eq!(lua("if (a) then b() end"), "if (a) then b() end");
        assert_eq!(
            lua("if (a) and b then\nc()\nend"),
            "if (a) and b then\nc()\nend"
        );
        assert_eq!(lua("if (a)\nthen b() end"), "if (a)\nthen b() end");
    }

    #[test]
    fn operators_comments_and_shorthands() {
        assert_eq!(lua("if a != b then end // c"), "if a ~= b then end -- c");
        assert_eq!(lua("x = 7 \\ 2"), "x = 7 // 2");
        assert_eq!(lua("?\"hi\", 1, 2"), "print(\"hi\", 1, 2)");
        assert_eq!(
            lua("x = @0x5f00 + %(a+1)"),
            "x = peek(0x5f00) + peek2((a+1))"
        );
        assert_eq!(lua("y = a % b"), "y = a % b");
        assert_eq!(lua(r#"s = "\#5a\^w\\#""#), r#"s = "\0025a\006w\\#""#);
        assert_eq!(
            lua("if btn(⬅️) or btn(❎) then end"),
            "if btn(0) or btn(5) then end"
        );
        assert_eq!(
            lua("if btnp(\u{1F17E}\u{FE0F}) then end"),
            "if btnp(4) then end"
        );
        assert_eq!(lua("s = \"⬅️ != ?\""), "s = \"⬅️ != ?\"");
    }

    #[test]
    fn numbers_read_as_pico8_reads_them() {
        assert_eq!(lua("f = 0b1010"), "f = 10");
        assert_eq!(
            lua("if h<1or h>14or v<0x1fand then end"),
            "if h<1 or h>14 or v<0x1fa nd then end"
        );
        assert_eq!(lua("f = 0b0101101001011010.1"), "f = 23130.5");
        assert_eq!(lua("f = 0xffff"), "f = -1");
        assert_eq!(
            lua("f = 0x7fff + 0x1.8 + 1.5e3"),
            "f = 0x7fff + 0x1.8 + 1.5e3"
        );
    }

    #[test]
    fn bitwise_operators_are_the_layers_functions() {
        assert_eq!(lua("x = a & b"), "x = band(a, b)");
        assert_eq!(lua("x = a|b"), "x = bor(a,b)");
        assert_eq!(lua("x = a ^^ b ~ c"), "x = bxor(bxor(a, b), c)");
        assert_eq!(lua("x = a << 2 >> 1"), "x = shr(shl(a, 2), 1)");
        assert_eq!(
            lua("x = a >>> 1 <<> 2 >>< 3"),
            "x = rotr(rotl(lshr(a, 1), 2), 3)"
        );
        assert_eq!(lua("x = ~a"), "x = bnot(a)");
        assert_eq!(lua("x = ~ ~a.b"), "x = bnot(bnot(a.b))");
        assert_eq!(lua("x = a ~= b"), "x = a ~= b");
        assert_eq!(lua("x = a != ~b"), "x = a ~= bnot(b)");
        assert_eq!(lua("s = \"a & b\" -- a | b"), "s = \"a & b\" -- a | b");
        assert_eq!(lua("?a & 1"), "print(band(a, 1))");
        assert_eq!(lua("if (a & 1) b = 2"), "if (band(a, 1)) then b = 2 end");
        assert_eq!(
            lua("return @a & %b, f\"x\" | g{1}"),
            "return band(peek(a), peek2(b)), bor(f\"x\", g{1})"
        );
    }

    #[test]
    fn bitwise_operators_keep_pico8s_priorities() {
        // Looser to tighter: or, and, comparisons, |, ^^ ~, &, shifts, .., + -, * / \ %,
        // unary, ^.
        assert_eq!(lua("x = a | b & c"), "x = bor(a, band(b, c))");
        assert_eq!(lua("x = a & b | c"), "x = bor(band(a, b), c)");
        assert_eq!(lua("x = a ^^ b & c | d"), "x = bor(bxor(a, band(b, c)), d)");
        assert_eq!(lua("x = a + 1 << b * 2"), "x = shl(a + 1, b * 2)");
        assert_eq!(lua("x = a << b .. c"), "x = shl(a, b .. c)");
        assert_eq!(lua("x = a .. b << c"), "x = shl(a .. b, c)");
        assert_eq!(lua("if a & 1 == 0 then end"), "if band(a, 1) == 0 then end");
        assert_eq!(
            lua("return a and b & c or not d | e"),
            "return a and band(b, c) or bor(not d, e)"
        );
        assert_eq!(lua("x = -a & -b ^ 2"), "x = band(-a, -b ^ 2)");
        assert_eq!(lua("x = ~a ^ 2 & #t"), "x = band(bnot(a ^ 2), #t)");
        assert_eq!(lua("x = a & b & c"), "x = band(band(a, b), c)");
        assert_eq!(lua("x = (a & b) | c"), "x = bor((band(a, b)), c)");
        assert_eq!(
            lua("x = f(a & 1, t[b | 2]).y & c.d:e(3)"),
            "x = band(f(band(a, 1), t[bor(b, 2)]).y, c.d:e(3))"
        );
        assert_eq!(lua("x = a % b & c \\ d"), "x = band(a % b, c // d)");
        assert_eq!(
            lua("x = a &\n  b -- b\ny = c\n  | d"),
            "x = band(a,\n  b) -- b\ny = bor(c\n  , d)"
        );
    }

    #[test]
    fn joined_code_is_one_line_that_means_the_same() {
        let source = "a += 1 -- note\n--[[ long\ncomment ]]\nif (x) y -= 2\ns = [[\none\n\"two\"]]";
        let one = translate_joined(source).unwrap();
        assert_eq!(one.lines().count(), 1);
        assert!(one.contains("s = \"one\\n\\\"two\\\"\""), "{one}");
        assert!(one.contains("if (x) then y = y - (2) end"), "{one}");
    }

    #[test]
    fn lines_stay_where_they_were() {
        let source = "a += 1\n--[[ long\ncomment ]]\nif (x) y -= 2\n?x\n";
        let out = lua(source);
        assert_eq!(out.lines().count(), source.lines().count());
        assert_eq!(out.lines().nth(3), Some("if (x) then y = y - (2) end"));
    }

    #[test]
    fn what_cannot_be_translated_names_its_line() {
        let err = translate("a = 1\nb = & 2").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(
            err.message.contains("`&` has no operand before it"),
            "{err}"
        );
        let err = translate("a = 1\n\nb = a |").unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.message.contains("`|` has no operand after it"), "{err}");
        assert_eq!(translate("x = a ]] & b").unwrap_err().line, 1);
        assert_eq!(lua("fillp(▒) fillp(●)"), "fillp(0x5a5a.8) fillp(-1632.5)");
        let err = translate("x = 1\ny = あ").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.message.contains("U+3042"), "{err}");
        assert_eq!(translate("#include x.lua").unwrap_err().line, 1);
        assert_eq!(translate("s = \"open").unwrap_err().line, 1);
    }
}
