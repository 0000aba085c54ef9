//! Just enough of a Lua parser for the translation: where an expression, a call's
//! suffixes or a function body end, over the lexer's tokens with layout skipped.

use super::LuaError;

use super::lex::{Kind, Token, error};

pub(super) const BINARY_OPS: &[&str] = &[
    "+", "-", "*", "/", "%", "^", "..", "==", "~=", "!=", "<", ">", "<=", ">=", "and", "or", "&",
    "|", "~", "^^", "<<", ">>", "\\",
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
        let mut end = self.operand(i)?;
        loop {
            let next = self.skip(end, false);
            let op = self.text(next);
            let is_binary = matches!(self.kind(next), Some(Kind::Op) | Some(Kind::Name))
                && BINARY_OPS.contains(&op);
            if !is_binary {
                return Ok(end);
            }
            end = self.operand(self.skip(next + 1, false))?;
        }
    }

    /// Unary operators, then a simple expression with its suffixes.
    pub(super) fn operand(&self, mut i: usize) -> Result<usize, LuaError> {
        while UNARY_OPS.contains(&self.text(i)) {
            i = self.skip(i + 1, false);
        }
        self.suffixed(i)
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
