//! The argument schema of the cart API: every function declares its arguments once — name,
//! kind (with the range or choices it takes) and default — as [`Arg`]s. The readers on
//! [`crate::script::call::Call`] (`int_arg`, `coord_arg`, ...) read an argument by its
//! declaration, `docs/api.md` renders the declarations as each function's argument table, and
//! the API tests derive their hostile arguments (one past each end of a range, nil for a
//! required argument, a wrong type, NaN) from them.

/// What an argument is, and which values it takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// An integer in `min..=max` (floats are rounded down); outside is an error.
    Int(i64, i64),
    /// Any integer (floats are rounded down); the function says what it does with extremes.
    Integer,
    /// An integer that must be one of these values.
    Choice(&'static [i64]),
    /// A position in pixels: an integer (floats rounded down) clamped to -32768..32767.
    Coord,
    /// A finite number in `min..=max`.
    Num(f64, f64),
    /// A string; numbers are converted as Lua's `tostring` does.
    Str,
    /// A boolean: nil and false are false, anything else true.
    Bool,
    /// A table, described by the text (`"array of integers"`).
    Table(&'static str),
    /// A plain value the text describes (`"button number or name"`): nil, a boolean, a
    /// number or a string, which the function reads itself.
    Any(&'static str),
    /// Any Lua value, tables included, as the text describes; the function reads it as a
    /// Lua value.
    Value(&'static str),
}

impl Kind {
    /// Whether an argument of this kind is read in place from the Lua stack (a plain value,
    /// or a table whose fields are read raw): a function whose arguments all are is called
    /// by the sandbox's direct entry, the others through mlua (`sandbox::bind`).
    pub(crate) fn is_read_in_place(&self) -> bool {
        !matches!(self, Kind::Value(_))
    }
}

/// Whether an argument may be left out (or nil), and what it is then.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Default {
    Required,
    Int(i64),
    Num(f64),
    Bool(bool),
    /// Optional without a value of its kind: the text says what leaving it out does.
    Absent(&'static str),
}

/// One declared argument.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arg {
    pub name: &'static str,
    pub kind: Kind,
    pub default: Default,
}

impl Arg {
    /// A required argument.
    pub const fn new(name: &'static str, kind: Kind) -> Arg {
        Arg {
            name,
            kind,
            default: Default::Required,
        }
    }

    /// A required integer in `min..=max`.
    pub const fn int(name: &'static str, min: i64, max: i64) -> Arg {
        Arg::new(name, Kind::Int(min, max))
    }

    /// A required position in pixels.
    pub(crate) const fn coord(name: &'static str) -> Arg {
        Arg::new(name, Kind::Coord)
    }

    /// A required finite number.
    pub(crate) const fn num(name: &'static str) -> Arg {
        Arg::new(name, Kind::Num(f64::MIN, f64::MAX))
    }

    /// A required string.
    pub const fn str(name: &'static str) -> Arg {
        Arg::new(name, Kind::Str)
    }

    /// This argument, optional with `default`.
    pub const fn or(self, default: Default) -> Arg {
        Arg { default, ..self }
    }

    /// This argument, optional with the integer `default`.
    pub(crate) const fn or_int(self, default: i64) -> Arg {
        self.or(Default::Int(default))
    }

    /// This argument, optional: leaving it out does what `meaning` says.
    pub const fn optional(self, meaning: &'static str) -> Arg {
        self.or(Default::Absent(meaning))
    }

    /// Whether it may be left out.
    pub fn is_optional(&self) -> bool {
        self.default != Default::Required
    }

    /// The docs' text for its kind: `integer 0..15`, `8, 16 or 32`, `number`.
    pub(crate) fn kind_text(&self) -> String {
        match self.kind {
            Kind::Int(min, max) => format!("integer {min}..{max}"),
            Kind::Integer => "integer".into(),
            Kind::Choice(values) => or_list(values),
            Kind::Coord => "pixels (integer)".into(),
            Kind::Num(min, max) if min == f64::MIN && max == f64::MAX => "number".into(),
            Kind::Num(min, max) if max == f64::MAX => format!("number >= {min}"),
            Kind::Num(min, max) => format!("number {min}..{max}"),
            Kind::Str => "string".into(),
            Kind::Bool => "boolean".into(),
            Kind::Table(text) | Kind::Any(text) | Kind::Value(text) => text.into(),
        }
    }

    #[cfg(test)]
    /// The docs' text for its default: `required`, `0`, `true`, or what leaving it out does.
    pub(crate) fn default_text(&self) -> String {
        match self.default {
            Default::Required => "required".into(),
            Default::Int(n) => n.to_string(),
            Default::Num(n) => n.to_string(),
            Default::Bool(b) => b.to_string(),
            Default::Absent(text) => text.into(),
        }
    }
}

/// `8, 16 or 32`.
pub fn or_list(values: &[i64]) -> String {
    let texts: Vec<String> = values.iter().map(i64::to_string).collect();
    match texts.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The argument list as the docs' signature shows it: `i, x, y, [size]`.
pub fn signature(args: &[Arg]) -> String {
    args.iter()
        .map(|a| match a.is_optional() {
            true => format!("[{}]", a.name),
            false => a.name.to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Sizes declared in [`crate::spec`] as a [`Kind::Choice`]'s values (in a `const`), so the
/// schema takes exactly what the hardware does.
macro_rules! choices {
    ($sizes:expr) => {{
        let mut values = [0i64; $sizes.len()];
        let mut i = 0;
        while i < values.len() {
            values[i] = $sizes[i] as i64;
            i += 1;
        }
        values
    }};
}
pub(crate) use choices;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_for_the_docs() {
        let size = Arg::new("cell", Kind::Choice(&[8, 16, 32])).or_int(8);
        assert_eq!(size.kind_text(), "8, 16 or 32");
        assert_eq!(size.default_text(), "8");
        let args = [Arg::int("i", 0, 255), Arg::coord("x"), size];
        assert_eq!(signature(&args), "i, x, [cell]");
        assert_eq!(args[0].kind_text(), "integer 0..255");
        assert_eq!(Arg::num("r").kind_text(), "number");
        assert_eq!(
            Arg::new("s", Kind::Num(0.0, f64::MAX)).kind_text(),
            "number >= 0"
        );
    }
}
