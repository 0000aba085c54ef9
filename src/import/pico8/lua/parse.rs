//! Just enough of a Lua parser for the translation: where an expression, a call's
//! suffixes or a function body end, and where the left operand of a binary operator starts,
//! over the lexer's tokens with layout skipped. Priorities are PICO-8's (the order of Lua
//! 5.4's, with PICO-8's own operators placed among them).

use super::LuaError;

use super::lex::{Kind, Token, error};

/// PICO-8's binary operators, each with its left and right priority: an operator takes an
/// operand away from the operator before it when its left priority is higher than that one's
/// right priority (higher binds tighter; `..` and `^` are right associative).
///
/// From the loosest to the tightest: `or`; `and`; the comparisons; `|`; `^^` and `~`
/// (exclusive or); `&`; the shifts and rotations `<<` `>>` `>>>` `<<>` `>><`; `..` (right
/// associative); `+` `-`; `*` `/` `\\` `%`; the unary operators (`-` `not` `#` `~` `@` `%`
/// `$`; only `^` binds tighter: `-a^b` is `-(a^b)`); `^` (right associative).
pub(super) const BINARY_PRIORITY: &[(&str, u8, u8)] = &[
    ("or", 1, 1),
    ("and", 2, 2),
    ("<", 3, 3),
    (">", 3, 3),
    ("<=", 3, 3),
    (">=", 3, 3),
    ("~=", 3, 3),
    ("!=", 3, 3),
    ("==", 3, 3),
    ("|", 4, 4),
    ("^^", 5, 5),
    ("~", 5, 5),
    ("&", 6, 6),
    ("<<", 7, 7),
    (">>", 7, 7),
    (">>>", 7, 7),
    ("<<>", 7, 7),
    (">><", 7, 7),
    ("..", 9, 8),
    ("+", 10, 10),
    ("-", 10, 10),
    ("*", 11, 11),
    ("/", 11, 11),
    ("//", 11, 11),
    ("\\", 11, 11),
    ("%", 11, 11),
    ("^", 13, 12),
];
pub(super) const UNARY_OPS: &[&str] = &["-", "not", "#", "~", "@", "%", "$"];
/// Keywords that end an expression (and start or end a statement).
pub(super) const STATEMENT_WORDS: &[&str] = &[
    "do", "end", "else", "elseif", "then", "until", "if", "while", "for", "repeat", "local",
    "return", "break", "goto", "function",
];

/// The code's tokens, with the layout between them skipped when parsing.
pub(super) struct Parser<'a> {
    pub(super) tokens: &'a [Token],
}

impl Parser<'_> {
    /// The next index at or after `i` of a token that is not layout, stopping at newlines
    /// when `stop_at_newline`.
    pub(super) fn skip(&self, mut i: usize, stop_at_newline: bool) -> usize {
        while let Some(t) = self.tokens.get(i) {
            match t.kind {
                Kind::Space | Kind::Comment => i += 1,
                Kind::Newline if !stop_at_newline => i += 1,
                _ => break,
            }
        }
        i
    }

    pub(super) fn text(&self, i: usize) -> &str {
        self.tokens.get(i).map_or("", |t| t.text.as_str())
    }

    pub(super) fn kind(&self, i: usize) -> Option<Kind> {
        self.tokens.get(i).map(|t| t.kind)
    }

    /// The index just past the bracket that closes the one at `i`.
    pub(super) fn close(&self, i: usize) -> Result<usize, LuaError> {
        let (open, close) = match self.text(i) {
            "(" => ("(", ")"),
            "[" => ("[", "]"),
            "{" => ("{", "}"),
            _ => unreachable!("close is called on an opening bracket"),
        };
        let mut depth = 0;
        for j in i..self.tokens.len() {
            if self.kind(j) == Some(Kind::Op) {
                if self.text(j) == open {
                    depth += 1;
                } else if self.text(j) == close {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(j + 1);
                    }
                }
            }
        }
        Err(error(
            self.tokens[i].line,
            format!("`{open}` is never closed"),
        ))
    }

    /// The index just past the `end` of a `function` body starting at `i`.
    pub(super) fn function_end(&self, i: usize) -> Result<usize, LuaError> {
        let mut depth = 0;
        for j in i..self.tokens.len() {
            if self.kind(j) != Some(Kind::Name) {
                continue;
            }
            match self.text(j) {
                "function" | "do" | "then" | "repeat" => depth += 1,
                "end" | "until" => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(j + 1);
                    }
                }
                _ => {}
            }
        }
        Err(error(self.tokens[i].line, "`function` has no `end`"))
    }

    /// The index just past the expression starting at `i` (layout on its ends excluded).
    pub(super) fn expression(&self, i: usize) -> Result<usize, LuaError> {
        self.expression_above(i, 0)
    }

    /// The index just past the expression starting at `i` that holds only the binary
    /// operators whose left priority is above `limit`: the right operand of an operator of
    /// right priority `limit`. (An operator binds there exactly when its left priority is
    /// above `limit`, at any depth, so no recursion is needed.)
    pub(super) fn expression_above(&self, mut i: usize, limit: u8) -> Result<usize, LuaError> {
        loop {
            let end = self.operand(i)?;
            let next = self.skip(end, false);
            match self.binary_at(next) {
                Some((left, _)) if left > limit => i = self.skip(next + 1, false),
                _ => return Ok(end),
            }
        }
    }

    /// The priorities of the binary operator at `j`, read where an operator follows an
    /// operand.
    pub(super) fn binary_at(&self, j: usize) -> Option<(u8, u8)> {
        if !matches!(self.kind(j), Some(Kind::Op) | Some(Kind::Name)) {
            return None;
        }
        let text = self.text(j);
        BINARY_PRIORITY
            .iter()
            .find(|(op, _, _)| *op == text)
            .map(|&(_, left, right)| (left, right))
    }

    /// The index of the last token before `j` that is not layout.
    pub(super) fn previous(&self, j: usize) -> Option<usize> {
        (0..j).rev().find(|&k| {
            !matches!(
                self.kind(k),
                Some(Kind::Space) | Some(Kind::Comment) | Some(Kind::Newline)
            )
        })
    }

    /// Whether the token at `j` can end an operand (so that an operator after it is binary).
    pub(super) fn ends_operand(&self, j: usize) -> bool {
        match (self.kind(j), self.text(j)) {
            (Some(Kind::Number), _) | (Some(Kind::Str), _) => true,
            (Some(Kind::Op), op) => matches!(op, ")" | "]" | "}" | "..."),
            (Some(Kind::Name), word) => {
                matches!(word, "true" | "false" | "nil")
                    || !(STATEMENT_WORDS.contains(&word)
                        || matches!(word, "and" | "or" | "not" | "in"))
            }
            _ => false,
        }
    }

    /// Whether the operator at `j` is unary (nothing that ends an operand before it).
    pub(super) fn is_unary(&self, j: usize) -> bool {
        self.is_unary_at(j)
            && (self.text(j) == "not" || !self.previous(j).is_some_and(|k| self.ends_operand(k)))
    }

    /// Where the left operand of the binary operator at `op` (of left priority `left`)
    /// starts: back over operands and the operators that bind them tighter than it does.
    pub(super) fn left_operand_start(&self, op: usize, left: u8) -> Result<usize, LuaError> {
        let line = self.tokens[op].line;
        let missing = || {
            error(
                line,
                format!("`{}` has no operand before it", self.text(op)),
            )
        };
        let mut at = op;
        loop {
            let last = self.previous(at).ok_or_else(missing)?;
            let mut start = self.prefix_start(last).ok_or_else(missing)?;
            while let Some(p) = self.previous(start).filter(|&p| self.is_unary(p)) {
                start = p;
            }
            match self.previous(start) {
                Some(p) if self.ends_operand_before(p) => match self.binary_at(p) {
                    Some((_, right)) if right >= left => at = p,
                    _ => return Ok(start),
                },
                _ => return Ok(start),
            }
        }
    }

    /// Whether a binary operator at `p` has an operand before it.
    fn ends_operand_before(&self, p: usize) -> bool {
        self.previous(p).is_some_and(|k| self.ends_operand(k))
    }

    /// The first token of the suffixed expression (a name, a parenthesis or a literal with
    /// its `.name`, `[...]`, `:name(...)` and call suffixes) whose last token is at `last`.
    fn prefix_start(&self, mut last: usize) -> Option<usize> {
        loop {
            let start = match (self.kind(last)?, self.text(last)) {
                (Kind::Op, ")" | "]" | "}") => {
                    let open = self.open(last)?;
                    let callee = self.previous(open).filter(|&p| self.ends_prefix(p));
                    match (self.text(open), callee) {
                        // An index always has something before it.
                        ("[", callee) => {
                            last = callee?;
                            continue;
                        }
                        // A call's arguments.
                        (_, Some(callee)) => {
                            last = callee;
                            continue;
                        }
                        _ => open,
                    }
                }
                (Kind::Str, _) => match self.previous(last).filter(|&p| self.ends_prefix(p)) {
                    Some(callee) => {
                        last = callee;
                        continue;
                    }
                    None => last,
                },
                (Kind::Name, word) if self.ends_operand(last) => {
                    if matches!(word, "true" | "false" | "nil") {
                        last
                    } else {
                        match self.previous(last) {
                            Some(dot) if matches!(self.text(dot), "." | ":") => {
                                last = self.previous(dot)?;
                                continue;
                            }
                            _ => last,
                        }
                    }
                }
                (Kind::Number, _) | (Kind::Op, "...") => last,
                _ => return None,
            };
            return Some(start);
        }
    }

    /// Whether the token at `p` can end a prefix expression that a call or index follows.
    fn ends_prefix(&self, p: usize) -> bool {
        match (self.kind(p), self.text(p)) {
            (Some(Kind::Op), op) => matches!(op, ")" | "]"),
            (Some(Kind::Name), word) => {
                self.ends_operand(p) && !matches!(word, "true" | "false" | "nil")
            }
            (Some(Kind::Str), _) => self.previous(p).is_some_and(|q| self.ends_prefix(q)),
            _ => false,
        }
    }

    /// The index of the bracket that opens the one closing at `j`.
    fn open(&self, j: usize) -> Option<usize> {
        let (open, close) = match self.text(j) {
            ")" => ("(", ")"),
            "]" => ("[", "]"),
            _ => ("{", "}"),
        };
        let mut depth = 0;
        for k in (0..=j).rev() {
            if self.kind(k) == Some(Kind::Op) {
                if self.text(k) == close {
                    depth += 1;
                } else if self.text(k) == open {
                    depth -= 1;
                    if depth == 0 {
                        return Some(k);
                    }
                }
            }
        }
        None
    }

    /// Unary operators, then a simple expression with its suffixes (and, after a unary
    /// operator, the `^` that binds tighter: `-a^b` is `-(a^b)`).
    pub(super) fn operand(&self, mut i: usize) -> Result<usize, LuaError> {
        let mut unary = false;
        loop {
            while self.is_unary_at(i) {
                unary = true;
                i = self.skip(i + 1, false);
            }
            let end = self.suffixed(i)?;
            let next = self.skip(end, false);
            if !(unary && self.text(next) == "^" && self.kind(next) == Some(Kind::Op)) {
                return Ok(end);
            }
            i = self.skip(next + 1, false);
        }
    }

    /// Whether the token at `i`, where an operand starts, is a unary operator.
    fn is_unary_at(&self, i: usize) -> bool {
        UNARY_OPS.contains(&self.text(i))
            && matches!(self.kind(i), Some(Kind::Op) | Some(Kind::Name))
    }

    pub(super) fn suffixed(&self, i: usize) -> Result<usize, LuaError> {
        let line = self.tokens.get(i).map_or(0, |t| t.line);
        let mut end = match (self.kind(i), self.text(i)) {
            (Some(Kind::Op), "(") | (Some(Kind::Op), "{") => self.close(i)?,
            (Some(Kind::Name), "function") => self.function_end(i)?,
            (Some(Kind::Op), "...") | (Some(Kind::Number), _) | (Some(Kind::Str), _) => i + 1,
            (Some(Kind::Name), word) if !STATEMENT_WORDS.contains(&word) => i + 1,
            _ => {
                return Err(error(
                    line,
                    format!("an expression was expected at `{}`", self.text(i)),
                ));
            }
        };
        loop {
            // A call's `(` must be on the same line in PICO-8 code as written here: a `(`
            // starting the next line is a new statement (as Lua warns of ambiguity).
            let next = self.skip(end, true);
            match (self.kind(next), self.text(next)) {
                (Some(Kind::Op), ".") | (Some(Kind::Op), ":") => {
                    end = self.skip(next + 1, false) + 1;
                }
                (Some(Kind::Op), "[") | (Some(Kind::Op), "(") | (Some(Kind::Op), "{") => {
                    end = self.close(next)?
                }
                (Some(Kind::Str), _) => end = next + 1,
                _ => return Ok(end),
            }
        }
    }
}
