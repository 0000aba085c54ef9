//! BulletML documents (parsed with `roxmltree`) turned into a checked pattern: every
//! reference resolved, every expression parsed, no reference cycles. Errors name the line
//! and the element path (`bulletml/action[top]/repeat/action/fire`).

use std::collections::BTreeMap;

use super::expr::Expr;

/// Index of an action, fire or bullet in its pattern.
pub type Id = usize;

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

/// A problem with a pattern document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError {
    pub line: usize,
    pub path: String,
    pub message: String,
}

impl std::fmt::Display for PatternError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}: {}", self.line, self.message)
        } else {
            write!(f, "{}: {}: {}", self.line, self.path, self.message)
        }
    }
}

type Node<'a> = roxmltree::Node<'a, 'a>;

/// Parses BulletML `text`, naming the pattern `name`.
pub fn parse(name: &str, text: &str) -> Result<Pattern, PatternError> {
    let doc = roxmltree::Document::parse(text).map_err(|e| PatternError {
        line: e.pos().row as usize,
        path: String::new(),
        message: format!("malformed XML: {e}"),
    })?;
    let root = doc.root_element();
    check_depth(&doc, root)?;
    let mut builder = Builder {
        doc: &doc,
        pattern: Pattern {
            name: name.into(),
            horizontal: root.attribute("type") == Some("horizontal"),
            actions: Vec::new(),
            fires: Vec::new(),
            bullets: Vec::new(),
            tops: Vec::new(),
        },
        labels: BTreeMap::new(),
        pending: Vec::new(),
    };
    if root.tag_name().name() != "bulletml" {
        return Err(builder.error(
            root,
            format!(
                "the root element is <{}>, not <bulletml>",
                root.tag_name().name()
            ),
        ));
    }
    // Labelled top-level elements first, so references can be resolved in any order.
    for child in root.children().filter(Node::is_element) {
        let kind = child.tag_name().name();
        if !matches!(kind, "action" | "fire" | "bullet") {
            return Err(builder.error(child, format!("<{kind}> cannot appear in <bulletml>")));
        }
    }
    for child in root.children().filter(Node::is_element) {
        match child.tag_name().name() {
            "action" => builder.action(child)?,
            "fire" => builder.fire(child)?,
            _ => builder.bullet(child)?,
        };
    }
    builder.resolve()?;
    if builder.pattern.tops.is_empty() {
        return Err(builder.error(root, "no <action> labelled \"top\" (or \"top...\")".into()));
    }
    builder.check_cycles()?;
    Ok(builder.pattern)
}

/// Deepest element nesting a pattern may have (the builder recurses once per level).
pub const MAX_NESTING: usize = 128;

/// Rejects documents nested deeper than [`MAX_NESTING`] elements, without recursing.
fn check_depth(doc: &roxmltree::Document, root: Node) -> Result<(), PatternError> {
    let mut stack = vec![(root, 1usize)];
    while let Some((node, depth)) = stack.pop() {
        if depth > MAX_NESTING {
            return Err(PatternError {
                line: doc.text_pos_at(node.range().start).row as usize,
                path: String::new(),
                message: format!("elements nest deeper than {MAX_NESTING} levels"),
            });
        }
        stack.extend(
            node.children()
                .filter(Node::is_element)
                .map(|c| (c, depth + 1)),
        );
    }
    Ok(())
}

/// A reference to resolve once every label is known.
struct Pending {
    kind: &'static str,
    label: String,
    line: usize,
    path: String,
    /// Where to write the resolved id.
    slot: Slot,
}

#[derive(Clone, Copy)]
enum Slot {
    Command(Id, usize),
    FireBullet(Id),
    BulletAction(Id, usize),
}

struct Builder<'a> {
    doc: &'a roxmltree::Document<'a>,
    pattern: Pattern,
    labels: BTreeMap<(String, String), Id>,
    pending: Vec<Pending>,
}

impl<'a> Builder<'a> {
    fn line(&self, node: Node) -> usize {
        self.doc.text_pos_at(node.range().start).row as usize
    }

    fn path(node: Node) -> String {
        let mut parts: Vec<String> = node
            .ancestors()
            .filter(Node::is_element)
            .map(|n| match n.attribute("label") {
                Some(label) => format!("{}[{label}]", n.tag_name().name()),
                None => n.tag_name().name().to_string(),
            })
            .collect();
        parts.reverse();
        parts.join("/")
    }

    fn error(&self, node: Node, message: String) -> PatternError {
        PatternError {
            line: self.line(node),
            path: Self::path(node),
            message,
        }
    }

    fn expr(&self, node: Node) -> Result<Expr, PatternError> {
        let text = node.text().unwrap_or("").trim();
        Expr::parse(text).map_err(|e| self.error(node, e))
    }

    fn only_child<'n>(
        &self,
        node: Node<'n>,
        names: &[&str],
    ) -> Result<Option<Node<'n>>, PatternError> {
        let found: Vec<Node> = node
            .children()
            .filter(|c| c.is_element() && names.contains(&c.tag_name().name()))
            .collect();
        match found.len() {
            0 => Ok(None),
            1 => Ok(Some(found[0])),
            _ => Err(self.error(
                found[1],
                format!("more than one <{}>", names.join("> or <")),
            )),
        }
    }

    fn direction(&self, node: Node) -> Result<Direction, PatternError> {
        let kind = match node.attribute("type").unwrap_or("aim") {
            "aim" => DirKind::Aim,
            "absolute" => DirKind::Absolute,
            "relative" => DirKind::Relative,
            "sequence" => DirKind::Sequence,
            other => {
                return Err(self.error(
                    node,
                    format!(
                        "direction type \"{other}\" is not aim, absolute, relative or sequence"
                    ),
                ));
            }
        };
        Ok(Direction {
            kind,
            value: self.expr(node)?,
        })
    }

    fn speed(&self, node: Node) -> Result<Speed, PatternError> {
        let kind = match node.attribute("type").unwrap_or("absolute") {
            "absolute" => SpeedKind::Absolute,
            "relative" => SpeedKind::Relative,
            "sequence" => SpeedKind::Sequence,
            other => {
                return Err(self.error(
                    node,
                    format!("type \"{other}\" is not absolute, relative or sequence"),
                ));
            }
        };
        Ok(Speed {
            kind,
            value: self.expr(node)?,
        })
    }

    fn params(&self, node: Node) -> Result<Vec<Expr>, PatternError> {
        node.children()
            .filter(|c| c.is_element())
            .map(|c| {
                if c.tag_name().name() == "param" {
                    self.expr(c)
                } else {
                    Err(self.error(
                        c,
                        format!("<{}> cannot appear in a reference", c.tag_name().name()),
                    ))
                }
            })
            .collect()
    }

    /// A link to an inline `inline_kind` element or a `ref_kind` reference, written to `slot`.
    fn link(&mut self, node: Node, slot: Slot) -> Result<Link, PatternError> {
        let name = node.tag_name().name();
        match name {
            "action" => Ok(Link::Inline(self.action(node)?)),
            "fire" => Ok(Link::Inline(self.fire(node)?)),
            "bullet" => Ok(Link::Inline(self.bullet(node)?)),
            "actionRef" | "fireRef" | "bulletRef" => {
                let label = node
                    .attribute("label")
                    .ok_or_else(|| self.error(node, format!("<{name}> needs a label")))?;
                let kind = match name {
                    "actionRef" => "action",
                    "fireRef" => "fire",
                    _ => "bullet",
                };
                self.pending.push(Pending {
                    kind,
                    label: label.into(),
                    line: self.line(node),
                    path: Self::path(node),
                    slot,
                });
                Ok(Link::Ref {
                    id: usize::MAX,
                    params: self.params(node)?,
                })
            }
            other => Err(self.error(node, format!("<{other}> is not allowed here"))),
        }
    }

    /// Records the label of element `node` of kind `kind` (any depth, as the reference does).
    fn label(&mut self, node: Node, kind: &str, id: Id) -> Result<(), PatternError> {
        if let Some(label) = node.attribute("label") {
            if self
                .labels
                .insert((kind.to_string(), label.to_string()), id)
                .is_some()
            {
                return Err(self.error(
                    node,
                    format!("two <{kind}> elements are labelled \"{label}\""),
                ));
            }
            if kind == "action" && label.starts_with("top") {
                self.pattern.tops.push(id);
            }
        }
        Ok(())
    }

    fn action(&mut self, node: Node) -> Result<Id, PatternError> {
        let id = self.pattern.actions.len();
        self.pattern.actions.push(Action {
            commands: Vec::new(),
        });
        self.label(node, "action", id)?;
        for child in node.children().filter(Node::is_element) {
            let index = self.pattern.actions[id].commands.len();
            let slot = Slot::Command(id, index);
            let command = match child.tag_name().name() {
                "repeat" => {
                    let times = self
                        .only_child(child, &["times"])?
                        .ok_or_else(|| self.error(child, "<repeat> needs <times>".into()))?;
                    let body = self
                        .only_child(child, &["action", "actionRef"])?
                        .ok_or_else(|| {
                            self.error(child, "<repeat> needs an <action> or <actionRef>".into())
                        })?;
                    Command::Repeat {
                        times: self.expr(times)?,
                        action: self.link(body, slot)?,
                    }
                }
                "fire" | "fireRef" => Command::Fire(self.link(child, slot)?),
                "action" | "actionRef" => Command::Action(self.link(child, slot)?),
                "changeDirection" => {
                    let direction = self.only_child(child, &["direction"])?.ok_or_else(|| {
                        self.error(child, "<changeDirection> needs <direction>".into())
                    })?;
                    Command::ChangeDirection {
                        direction: self.direction(direction)?,
                        term: self.term(child)?,
                    }
                }
                "changeSpeed" => {
                    let speed = self
                        .only_child(child, &["speed"])?
                        .ok_or_else(|| self.error(child, "<changeSpeed> needs <speed>".into()))?;
                    Command::ChangeSpeed {
                        speed: self.speed(speed)?,
                        term: self.term(child)?,
                    }
                }
                "accel" => Command::Accel {
                    horizontal: self
                        .only_child(child, &["horizontal"])?
                        .map(|n| self.speed(n))
                        .transpose()?,
                    vertical: self
                        .only_child(child, &["vertical"])?
                        .map(|n| self.speed(n))
                        .transpose()?,
                    term: self.term(child)?,
                },
                "wait" => Command::Wait(self.expr(child)?),
                "vanish" => Command::Vanish,
                other => {
                    return Err(self.error(child, format!("<{other}> cannot appear in <action>")));
                }
            };
            self.pattern.actions[id].commands.push(command);
        }
        Ok(id)
    }

    fn term(&self, node: Node) -> Result<Expr, PatternError> {
        let term = self.only_child(node, &["term"])?.ok_or_else(|| {
            self.error(node, format!("<{}> needs <term>", node.tag_name().name()))
        })?;
        self.expr(term)
    }

    /// The optional `<direction>` and `<speed>` children of a `<fire>` or `<bullet>`.
    fn direction_and_speed(
        &self,
        node: Node,
    ) -> Result<(Option<Direction>, Option<Speed>), PatternError> {
        let direction = self
            .only_child(node, &["direction"])?
            .map(|n| self.direction(n))
            .transpose()?;
        let speed = self
            .only_child(node, &["speed"])?
            .map(|n| self.speed(n))
            .transpose()?;
        Ok((direction, speed))
    }

    fn fire(&mut self, node: Node) -> Result<Id, PatternError> {
        let id = self.pattern.fires.len();
        let (direction, speed) = self.direction_and_speed(node)?;
        self.pattern.fires.push(Fire {
            direction,
            speed,
            bullet: Link::Inline(usize::MAX),
        });
        self.label(node, "fire", id)?;
        let bullet = self
            .only_child(node, &["bullet", "bulletRef"])?
            .ok_or_else(|| self.error(node, "<fire> needs a <bullet> or <bulletRef>".into()))?;
        let link = self.link(bullet, Slot::FireBullet(id))?;
        self.pattern.fires[id].bullet = link;
        Ok(id)
    }

    fn bullet(&mut self, node: Node) -> Result<Id, PatternError> {
        let id = self.pattern.bullets.len();
        let (direction, speed) = self.direction_and_speed(node)?;
        self.pattern.bullets.push(Bullet {
            direction,
            speed,
            actions: Vec::new(),
        });
        self.label(node, "bullet", id)?;
        for child in node.children().filter(Node::is_element) {
            match child.tag_name().name() {
                "direction" | "speed" => {}
                "action" | "actionRef" => {
                    let index = self.pattern.bullets[id].actions.len();
                    let link = self.link(child, Slot::BulletAction(id, index))?;
                    self.pattern.bullets[id].actions.push(link);
                }
                other => {
                    return Err(self.error(child, format!("<{other}> cannot appear in <bullet>")));
                }
            }
        }
        Ok(id)
    }

    fn resolve(&mut self) -> Result<(), PatternError> {
        for pending in std::mem::take(&mut self.pending) {
            let id = *self
                .labels
                .get(&(pending.kind.to_string(), pending.label.clone()))
                .ok_or_else(|| PatternError {
                    line: pending.line,
                    path: pending.path.clone(),
                    message: format!("no <{}> labelled \"{}\"", pending.kind, pending.label),
                })?;
            let link = match pending.slot {
                Slot::Command(action, index) => {
                    match &mut self.pattern.actions[action].commands[index] {
                        Command::Repeat { action, .. } => action,
                        Command::Fire(link) | Command::Action(link) => link,
                        _ => unreachable!("only links are pending"),
                    }
                }
                Slot::FireBullet(fire) => &mut self.pattern.fires[fire].bullet,
                Slot::BulletAction(bullet, index) => {
                    &mut self.pattern.bullets[bullet].actions[index]
                }
            };
            if let Link::Ref { id: slot, .. } = link {
                *slot = id;
            }
        }
        Ok(())
    }

    /// Rejects patterns whose references loop back on themselves (they would recurse without
    /// end), naming the loop.
    fn check_cycles(&self) -> Result<(), PatternError> {
        #[derive(Clone, Copy, PartialEq)]
        enum Node {
            Action(Id),
            Fire(Id),
            Bullet(Id),
        }
        let p = &self.pattern;
        let edges = |n: Node| -> Vec<Node> {
            match n {
                Node::Action(a) => p.actions[a]
                    .commands
                    .iter()
                    .filter_map(|c| match c {
                        Command::Repeat { action, .. } | Command::Action(action) => {
                            Some(Node::Action(action.id()))
                        }
                        Command::Fire(fire) => Some(Node::Fire(fire.id())),
                        _ => None,
                    })
                    .collect(),
                Node::Fire(f) => vec![Node::Bullet(p.fires[f].bullet.id())],
                Node::Bullet(b) => p.bullets[b]
                    .actions
                    .iter()
                    .map(|l| Node::Action(l.id()))
                    .collect(),
            }
        };
        let label_of = |n: Node| -> String {
            let (kind, id) = match n {
                Node::Action(i) => ("action", i),
                Node::Fire(i) => ("fire", i),
                Node::Bullet(i) => ("bullet", i),
            };
            self.labels
                .iter()
                .find(|((k, _), v)| k == kind && **v == id)
                .map(|((_, l), _)| format!("{kind}[{l}]"))
                .unwrap_or_else(|| format!("an inline <{kind}>"))
        };
        // Depth-first search with colours; the stack is explicit so deep patterns cannot
        // overflow it.
        let index = |n: Node| match n {
            Node::Action(i) => i,
            Node::Fire(i) => p.actions.len() + i,
            Node::Bullet(i) => p.actions.len() + p.fires.len() + i,
        };
        let total = p.actions.len() + p.fires.len() + p.bullets.len();
        let mut colour = vec![0u8; total];
        let roots: Vec<Node> = (0..p.actions.len())
            .map(Node::Action)
            .chain((0..p.fires.len()).map(Node::Fire))
            .chain((0..p.bullets.len()).map(Node::Bullet))
            .collect();
        for root in roots {
            if colour[index(root)] != 0 {
                continue;
            }
            let mut stack: Vec<(Node, usize)> = vec![(root, 0)];
            colour[index(root)] = 1;
            while let Some(&mut (node, ref mut next)) = stack.last_mut() {
                let children = edges(node);
                if *next < children.len() {
                    let child = children[*next];
                    *next += 1;
                    match colour[index(child)] {
                        0 => {
                            colour[index(child)] = 1;
                            stack.push((child, 0));
                        }
                        1 => {
                            let start = stack.iter().position(|(n, _)| *n == child).unwrap_or(0);
                            let mut names: Vec<String> =
                                stack[start..].iter().map(|(n, _)| label_of(*n)).collect();
                            names.push(label_of(child));
                            return Err(PatternError {
                                line: 1,
                                path: String::new(),
                                message: format!("references loop: {}", names.join(" -> ")),
                            });
                        }
                        _ => {}
                    }
                } else {
                    colour[index(node)] = 2;
                    stack.pop();
                }
            }
        }
        Ok(())
    }
}
