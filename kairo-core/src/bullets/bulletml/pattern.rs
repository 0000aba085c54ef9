//! A checked BulletML pattern: actions, fires and bullets by index, every reference
//! resolved, every expression parsed (built from a document by [`super::build`]).

use std::collections::BTreeMap;

use super::expr::Expr;

/// Index of an action, fire or bullet in its pattern.
pub(crate) type Id = usize;

/// A direction: its type and value (degrees).
#[derive(Clone, Debug, PartialEq)]
pub struct Direction {
    pub kind: DirKind,
    pub value: Expr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DirKind {
    Aim,
    Absolute,
    Relative,
    Sequence,
}

/// A speed (or an acceleration component): its type and value.
#[derive(Clone, Debug, PartialEq)]
pub struct Speed {
    pub kind: SpeedKind,
    pub value: Expr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpeedKind {
    Absolute,
    Relative,
    Sequence,
}

/// An inline element or a reference with parameters.
#[derive(Clone, Debug, PartialEq)]
pub enum Link {
    Inline(Id),
    Ref { id: Id, params: Vec<Expr> },
}

impl Link {
    pub fn id(&self) -> Id {
        match self {
            Link::Inline(id) | Link::Ref { id, .. } => *id,
        }
    }
}

/// One command of an action.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Repeat {
        times: Expr,
        action: Link,
    },
    Fire(Link),
    ChangeDirection {
        direction: Direction,
        term: Expr,
    },
    ChangeSpeed {
        speed: Speed,
        term: Expr,
    },
    Accel {
        horizontal: Option<Speed>,
        vertical: Option<Speed>,
        term: Expr,
    },
    Wait(Expr),
    Vanish,
    Action(Link),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    pub commands: Vec<Command>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Fire {
    pub direction: Option<Direction>,
    pub speed: Option<Speed>,
    pub bullet: Link,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Bullet {
    pub direction: Option<Direction>,
    pub speed: Option<Speed>,
    /// The actions a fired bullet runs one after another: its inline `<action>`s first, then
    /// its `<actionRef>`s, each in document order (libbulletml's order).
    pub actions: Vec<Link>,
}

/// A checked BulletML pattern.
#[derive(Clone, Debug, PartialEq)]
pub struct Pattern {
    pub name: String,
    /// `type="horizontal"`: absolute directions and accelerations are turned a quarter.
    pub horizontal: bool,
    pub actions: Vec<Action>,
    pub fires: Vec<Fire>,
    pub bullets: Vec<Bullet>,
    /// Actions whose label starts with `top`, in document order; they run in parallel.
    pub tops: Vec<Id>,
}

/// A problem with a pattern document: its line, the element path (may be empty) and what
/// is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}: {}{message}", if path.is_empty() { String::new() } else { format!("{path}: ") })]
pub struct PatternError {
    pub line: usize,
    pub path: String,
    pub message: String,
}

/// Most `<param>`s a reference may pass: only `$1`-`$99` can be read.
pub(crate) const MAX_PARAMS: usize = 99;

/// Labels of the pattern's elements: (kind, label) -> id.
pub(crate) type Labels = BTreeMap<(String, String), Id>;
