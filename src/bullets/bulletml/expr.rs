//! BulletML expressions: numbers, `$1`-`$9`, `$rand`, `$rank`, `+ - * /` (and `%`, which the
//! spec lists though the reference implementation lacks it), unary minus and parentheses.
//! Parsed once when the pattern loads.

/// A parsed expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Number(f64),
    Param(u8),
    Rand,
    Rank,
    Neg(Box<Expr>),
    Binary(Box<Expr>, Op, Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

/// What an expression reads while it is evaluated.
pub trait Context {
    /// `$n` (1-based); 1 when there is no such parameter, as the reference does.
    fn param(&self, n: u8) -> f64;
    /// A new random number in [0, 1) for each `$rand`.
    fn rand(&mut self) -> f64;
    fn rank(&self) -> f64;
}

impl Expr {
    /// Parses `text`; the error says what is wrong.
    pub fn parse(text: &str) -> Result<Expr, String> {
        let tokens = tokenize(text)?;
        let mut parser = Parser {
            tokens,
            at: 0,
            depth: 0,
        };
        let expr = parser.sum()?;
        if parser.at != parser.tokens.len() {
            return Err(format!(
                "unexpected `{}` in `{text}`",
                parser.tokens[parser.at].show()
            ));
        }
        Ok(expr)
    }

    /// The value in `context`.
    pub fn eval(&self, context: &mut dyn Context) -> f64 {
        match self {
            Expr::Number(n) => *n,
            Expr::Param(n) => context.param(*n),
            Expr::Rand => context.rand(),
            Expr::Rank => context.rank(),
            Expr::Neg(e) => -e.eval(context),
            Expr::Binary(a, op, b) => {
                let (a, b) = (a.eval(context), b.eval(context));
                match op {
                    Op::Add => a + b,
                    Op::Sub => a - b,
                    Op::Mul => a * b,
                    Op::Div => a / b,
                    Op::Rem => a % b,
                }
            }
        }
    }

    /// Whether the value depends on nothing (for checks at load time).
    pub fn constant(&self) -> Option<f64> {
        match self {
            Expr::Number(n) => Some(*n),
            Expr::Neg(e) => e.constant().map(|v| -v),
            Expr::Binary(a, op, b) => {
                let (a, b) = (a.constant()?, b.constant()?);
                Some(match op {
                    Op::Add => a + b,
                    Op::Sub => a - b,
                    Op::Mul => a * b,
                    Op::Div => a / b,
                    Op::Rem => a % b,
                })
            }
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Number(f64),
    Param(u8),
    Rand,
    Rank,
    Symbol(char),
}

impl Token {
    fn show(&self) -> String {
        match self {
            Token::Number(n) => n.to_string(),
            Token::Param(n) => format!("${n}"),
            Token::Rand => "$rand".into(),
            Token::Rank => "$rank".into(),
            Token::Symbol(c) => c.to_string(),
        }
    }
}

fn tokenize(text: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || c == '.' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            let literal: String = chars[start..i].iter().collect();
            let value = literal
                .parse::<f64>()
                .map_err(|_| format!("`{literal}` is not a number"))?;
            tokens.push(Token::Number(value));
        } else if c == '$' {
            let rest: String = chars[i + 1..].iter().collect();
            if rest.starts_with("rand") {
                tokens.push(Token::Rand);
                i += 5;
            } else if rest.starts_with("rank") {
                tokens.push(Token::Rank);
                i += 5;
            } else {
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                let n: u8 = digits
                    .parse()
                    .map_err(|_| format!("`${digits}` is not $1-$99, $rand or $rank"))?;
                if n == 0 {
                    return Err("parameters start at $1".into());
                }
                tokens.push(Token::Param(n));
                i += 1 + digits.len();
            }
        } else if "+-*/%()".contains(c) {
            tokens.push(Token::Symbol(c));
            i += 1;
        } else {
            return Err(format!("`{c}` cannot appear in an expression"));
        }
    }
    if tokens.is_empty() {
        return Err("empty expression".into());
    }
    Ok(tokens)
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
    /// Nesting of parentheses and signs, bounded so a hostile file cannot exhaust the stack.
    depth: u32,
}

/// Deepest nesting of parentheses and unary signs an expression may have.
const MAX_DEPTH: u32 = 64;

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn sum(&mut self) -> Result<Expr, String> {
        let mut left = self.product()?;
        while let Some(Token::Symbol(c @ ('+' | '-'))) = self.peek().cloned() {
            self.at += 1;
            let right = self.product()?;
            let op = if c == '+' { Op::Add } else { Op::Sub };
            left = Expr::Binary(Box::new(left), op, Box::new(right));
        }
        Ok(left)
    }

    fn product(&mut self) -> Result<Expr, String> {
        let mut left = self.unary()?;
        while let Some(Token::Symbol(c @ ('*' | '/' | '%'))) = self.peek().cloned() {
            self.at += 1;
            let right = self.unary()?;
            let op = match c {
                '*' => Op::Mul,
                '/' => Op::Div,
                _ => Op::Rem,
            };
            left = Expr::Binary(Box::new(left), op, Box::new(right));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Expr, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!(
                "the expression nests deeper than {MAX_DEPTH} levels"
            ));
        }
        let result = self.unary_inner();
        self.depth -= 1;
        result
    }

    fn unary_inner(&mut self) -> Result<Expr, String> {
        if let Some(Token::Symbol('-')) = self.peek() {
            self.at += 1;
            return Ok(Expr::Neg(Box::new(self.unary()?)));
        }
        if let Some(Token::Symbol('+')) = self.peek() {
            self.at += 1;
            return self.unary();
        }
        self.atom()
    }

    fn atom(&mut self) -> Result<Expr, String> {
        let token = self
            .peek()
            .cloned()
            .ok_or("the expression ends too early")?;
        self.at += 1;
        Ok(match token {
            Token::Number(n) => Expr::Number(n),
            Token::Param(n) => Expr::Param(n),
            Token::Rand => Expr::Rand,
            Token::Rank => Expr::Rank,
            Token::Symbol('(') => {
                let inner = self.sum()?;
                if self.peek() != Some(&Token::Symbol(')')) {
                    return Err("a `(` is not closed".into());
                }
                self.at += 1;
                inner
            }
            Token::Symbol(c) => return Err(format!("unexpected `{c}`")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixed(Vec<f64>, f64);

    impl Context for Fixed {
        fn param(&self, n: u8) -> f64 {
            self.0.get(usize::from(n) - 1).copied().unwrap_or(1.0)
        }
        fn rand(&mut self) -> f64 {
            self.1 += 0.25;
            self.1
        }
        fn rank(&self) -> f64 {
            0.5
        }
    }

    fn eval(text: &str) -> f64 {
        Expr::parse(text)
            .unwrap()
            .eval(&mut Fixed(vec![10.0, 3.0], 0.0))
    }

    #[test]
    fn precedence_unary_minus_and_parameters() {
        assert_eq!(eval("1-2-3"), -4.0);
        assert_eq!(eval("2+3*4"), 14.0);
        assert_eq!(eval("(2+3)*4"), 20.0);
        assert_eq!(eval("-2*3"), -6.0);
        assert_eq!(eval("2*-3"), -6.0);
        assert_eq!(eval("$1/$2*3"), 10.0);
        assert_eq!(eval("$9"), 1.0, "missing parameters read as 1");
        assert_eq!(eval("$rank*360"), 180.0);
        assert_eq!(eval("$rand+$rand"), 0.75, "a new random number per $rand");
        assert_eq!(eval("7%4"), 3.0);
        assert_eq!(eval(" 180 - 45 "), 135.0);
    }

    #[test]
    fn bad_expressions_say_what_is_wrong() {
        assert!(Expr::parse("1+").unwrap_err().contains("ends too early"));
        assert!(Expr::parse("(1+2").unwrap_err().contains("not closed"));
        assert!(Expr::parse("1 2").unwrap_err().contains("unexpected"));
        assert!(Expr::parse("$x").is_err());
        assert!(Expr::parse("sin(3)").is_err());
        assert!(Expr::parse("").is_err());
        assert!(Expr::parse("1.2.3").is_err());
        assert!(
            Expr::parse(&"(".repeat(100_000))
                .unwrap_err()
                .contains("deeper")
        );
        assert!(
            Expr::parse(&format!("{}1", "-".repeat(100_000)))
                .unwrap_err()
                .contains("deeper")
        );
    }
}
