//! BulletML expressions: numbers, `$1`-`$99`, `$rand`, `$rank`, `+ - * /` (and `%`, which the
//! spec lists though libbulletml lacks it), unary minus and parentheses.
//!
//! Parsed once when the pattern loads, in one pass with an explicit operator stack
//! (shunting-yard), into postfix form; evaluated with a value stack. Neither step recurses,
//! so an expression of any length or nesting costs time and memory in proportion to its
//! length and nothing else. Operands are evaluated left to right, as libbulletml's
//! compiled formulas do, so `$rand` draws come in reading order.

/// A parsed expression, in postfix order.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    ops: Vec<Op>,
    /// The deepest the value stack gets while evaluating.
    depth: usize,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    Number(f64),
    Param(u8),
    Rand,
    Rank,
    Neg,
    Binary(Binary),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Binary {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl Binary {
    fn precedence(self) -> u8 {
        match self {
            Binary::Add | Binary::Sub => 1,
            Binary::Mul | Binary::Div | Binary::Rem => 2,
        }
    }

    fn apply(self, a: f64, b: f64) -> f64 {
        match self {
            Binary::Add => a + b,
            Binary::Sub => a - b,
            Binary::Mul => a * b,
            Binary::Div => a / b,
            Binary::Rem => a % b,
        }
    }
}

/// What an expression reads while it is evaluated.
pub trait Context {
    /// `$n` (1-based); 1 when there is no such parameter, as libbulletml does.
    fn param(&self, n: u8) -> f64;
    /// A new random number in [0, 1) for each `$rand`.
    fn rand(&mut self) -> f64;
    fn rank(&self) -> f64;
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Token {
    Number(f64),
    Param(u8),
    Rand,
    Rank,
    Symbol(u8),
}

impl Token {
    fn show(&self) -> String {
        match self {
            Token::Number(n) => n.to_string(),
            Token::Param(n) => format!("${n}"),
            Token::Rand => "$rand".into(),
            Token::Rank => "$rank".into(),
            Token::Symbol(c) => char::from(*c).to_string(),
        }
    }
}

/// An entry of the operator stack while parsing.
#[derive(Clone, Copy, PartialEq)]
enum Pending {
    Open,
    Neg,
    Binary(Binary),
}

/// Value stacks this deep live on the call stack; deeper ones are allocated.
const INLINE_STACK: usize = 16;

impl Expr {
    /// Parses `text`; the error says what is wrong.
    pub fn parse(text: &str) -> Result<Expr, String> {
        let mut ops = Vec::new();
        let mut pending: Vec<Pending> = Vec::new();
        // Whether the next token must be an operand (a number, a variable, `(` or a sign).
        let mut want_operand = true;
        let mut tokens = Tokens { text, at: 0 };
        let mut any = false;
        while let Some(token) = tokens.next()? {
            any = true;
            if want_operand {
                match token {
                    Token::Number(n) => ops.push(Op::Number(n)),
                    Token::Param(n) => ops.push(Op::Param(n)),
                    Token::Rand => ops.push(Op::Rand),
                    Token::Rank => ops.push(Op::Rank),
                    Token::Symbol(b'(') => pending.push(Pending::Open),
                    Token::Symbol(b'-') => pending.push(Pending::Neg),
                    Token::Symbol(b'+') => {}
                    other => return Err(format!("unexpected `{}`", other.show())),
                }
                want_operand = matches!(token, Token::Symbol(_));
                continue;
            }
            match token {
                Token::Symbol(b')') => {
                    loop {
                        match pending.pop() {
                            Some(Pending::Open) => break,
                            Some(p) => ops.push(op_of(p)),
                            None => return Err("unexpected `)`".into()),
                        }
                    }
                    want_operand = false;
                }
                Token::Symbol(c @ (b'+' | b'-' | b'*' | b'/' | b'%')) => {
                    let binary = match c {
                        b'+' => Binary::Add,
                        b'-' => Binary::Sub,
                        b'*' => Binary::Mul,
                        b'/' => Binary::Div,
                        _ => Binary::Rem,
                    };
                    // Signs bind tighter than any binary operator; binary operators are
                    // left-associative.
                    while let Some(&top) = pending.last() {
                        let pops = match top {
                            Pending::Open => false,
                            Pending::Neg => true,
                            Pending::Binary(b) => b.precedence() >= binary.precedence(),
                        };
                        if !pops {
                            break;
                        }
                        pending.pop();
                        ops.push(op_of(top));
                    }
                    pending.push(Pending::Binary(binary));
                    want_operand = true;
                }
                other => return Err(format!("unexpected `{}` in `{text}`", other.show())),
            }
        }
        if !any {
            return Err("empty expression".into());
        }
        if want_operand {
            return Err("the expression ends too early".into());
        }
        while let Some(p) = pending.pop() {
            if p == Pending::Open {
                return Err("a `(` is not closed".into());
            }
            ops.push(op_of(p));
        }
        let depth = stack_depth(&ops);
        Ok(Expr { ops, depth })
    }

    /// Work of an evaluation beyond that of the command it belongs to, in commands: nothing
    /// for the expressions patterns are made of, one command per 16 terms for long ones.
    pub fn work(&self) -> u64 {
        (self.ops.len() / 16) as u64
    }

    /// The value in `context`.
    pub fn eval(&self, context: &mut dyn Context) -> f64 {
        if let [Op::Number(n)] = self.ops[..] {
            return n;
        }
        if self.depth <= INLINE_STACK {
            let mut stack = [0.0; INLINE_STACK];
            self.run(&mut stack, context)
        } else {
            let mut stack = vec![0.0; self.depth];
            self.run(&mut stack, context)
        }
    }

    /// Evaluates the postfix ops on `stack`, which is at least `self.depth` long.
    fn run(&self, stack: &mut [f64], context: &mut dyn Context) -> f64 {
        let mut len = 0;
        for op in &self.ops {
            match *op {
                Op::Number(n) => {
                    stack[len] = n;
                    len += 1;
                }
                Op::Param(n) => {
                    stack[len] = context.param(n);
                    len += 1;
                }
                Op::Rand => {
                    stack[len] = context.rand();
                    len += 1;
                }
                Op::Rank => {
                    stack[len] = context.rank();
                    len += 1;
                }
                Op::Neg => stack[len - 1] = -stack[len - 1],
                Op::Binary(b) => {
                    len -= 1;
                    stack[len - 1] = b.apply(stack[len - 1], stack[len]);
                }
            }
        }
        stack[0]
    }
}

fn op_of(pending: Pending) -> Op {
    match pending {
        Pending::Neg => Op::Neg,
        Pending::Binary(b) => Op::Binary(b),
        Pending::Open => unreachable!("parentheses never reach the output"),
    }
}

/// The most values a postfix sequence holds at once.
fn stack_depth(ops: &[Op]) -> usize {
    let (mut len, mut deepest) = (0usize, 0usize);
    for op in ops {
        match op {
            Op::Neg => {}
            Op::Binary(_) => len -= 1,
            _ => {
                len += 1;
                deepest = deepest.max(len);
            }
        }
    }
    deepest
}

/// The tokens of an expression, read on demand.
struct Tokens<'a> {
    text: &'a str,
    at: usize,
}

impl Tokens<'_> {
    fn next(&mut self) -> Result<Option<Token>, String> {
        let bytes = self.text.as_bytes();
        while self.at < bytes.len() && bytes[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
        let Some(&c) = bytes.get(self.at) else {
            return Ok(None);
        };
        let start = self.at;
        if c.is_ascii_digit() || c == b'.' {
            while self.at < bytes.len()
                && (bytes[self.at].is_ascii_digit() || bytes[self.at] == b'.')
            {
                self.at += 1;
            }
            let literal = &self.text[start..self.at];
            return literal
                .parse::<f64>()
                .map(|n| Some(Token::Number(n)))
                .map_err(|_| format!("`{literal}` is not a number"));
        }
        if c == b'$' {
            let rest = &self.text[start + 1..];
            for (name, token) in [("rand", Token::Rand), ("rank", Token::Rank)] {
                if rest.starts_with(name) {
                    self.at += 1 + name.len();
                    return Ok(Some(token));
                }
            }
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            let n: u32 = rest[..digits.min(3)].parse().unwrap_or(0);
            if digits == 0 || digits > 2 || n == 0 {
                let shown: String = rest.chars().take(8).collect();
                return Err(format!("`${shown}` is not $1-$99, $rand or $rank"));
            }
            self.at += 1 + digits;
            return Ok(Some(Token::Param(n as u8)));
        }
        if b"+-*/%()".contains(&c) {
            self.at += 1;
            return Ok(Some(Token::Symbol(c)));
        }
        let shown = self.text[start..].chars().next().unwrap_or('?');
        Err(format!("`{shown}` cannot appear in an expression"))
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
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .eval(&mut Fixed(vec![10.0, 3.0], 0.0))
    }

    #[test]
    fn precedence_unary_minus_and_parameters() {
        assert_eq!(eval("1-2-3"), -4.0);
        assert_eq!(eval("2+3*4"), 14.0);
        assert_eq!(eval("(2+3)*4"), 20.0);
        assert_eq!(eval("-2*3"), -6.0);
        assert_eq!(eval("2*-3"), -6.0);
        assert_eq!(eval("-(2+3)*2"), -10.0);
        assert_eq!(eval("8/2/2"), 2.0);
        assert_eq!(eval("2-(3-(4-5))"), -2.0);
        assert_eq!(eval("$1/$2*3"), 10.0);
        assert_eq!(eval("$9"), 1.0, "missing parameters read as 1");
        assert_eq!(eval("$rank*360"), 180.0);
        assert_eq!(eval("$rand+$rand"), 0.75, "a new random number per $rand");
        assert_eq!(eval("$rand-$rand*2"), -0.75, "drawn left to right");
        assert_eq!(eval("7%4"), 3.0);
        assert_eq!(eval(" 180 - 45 "), 135.0);
        assert_eq!(eval("+5"), 5.0);
        assert_eq!(eval(".5+5."), 5.5);
        assert_eq!(eval("0-$1"), -10.0);
    }

    #[test]
    fn bad_expressions_say_what_is_wrong() {
        assert!(Expr::parse("1+").unwrap_err().contains("ends too early"));
        assert!(Expr::parse("(1+2").unwrap_err().contains("not closed"));
        assert!(Expr::parse("1+2)").unwrap_err().contains("unexpected `)`"));
        assert!(Expr::parse("()").unwrap_err().contains("unexpected `)`"));
        assert!(Expr::parse("1 2").unwrap_err().contains("unexpected"));
        assert!(Expr::parse("*2").unwrap_err().contains("unexpected `*`"));
        assert!(Expr::parse("$x").is_err());
        assert!(Expr::parse("$0").is_err());
        assert!(Expr::parse("$100").is_err());
        assert!(Expr::parse("sin(3)").is_err());
        assert!(Expr::parse("").is_err());
        assert!(Expr::parse("   ").is_err());
        assert!(Expr::parse("1.2.3").is_err());
        assert!(Expr::parse("1é").unwrap_err().contains("`é`"));
    }

    #[test]
    fn long_and_deep_expressions_parse_and_evaluate_without_recursion() {
        let n = 200_000;
        let sum = vec!["1"; n].join("+");
        assert_eq!(eval(&sum), n as f64);
        let nested = format!("{}1{}", "(".repeat(n), ")".repeat(n));
        assert_eq!(eval(&nested), 1.0);
        let right_deep = format!("{}1{}", "(1+".repeat(n), ")".repeat(n));
        assert_eq!(eval(&right_deep), (n + 1) as f64);
        assert_eq!(eval(&format!("{}1", "-".repeat(n + 1))), -1.0);
        assert!(
            Expr::parse(&"(".repeat(n))
                .unwrap_err()
                .contains("ends too early")
        );
    }
}
