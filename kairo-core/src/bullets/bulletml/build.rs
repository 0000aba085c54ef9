//! BulletML documents (read by [`super::xml`]) turned into a checked [`Pattern`]: every
//! reference resolved, every expression parsed, no reference cycles among actions, bounded
//! call depth. Errors name the line and the element path
//! (`bulletml/action[top]/repeat/action/fire`). Building is linear in the size of the
//! document: lines and paths are only worked out for the error that is reported.

use std::collections::BTreeMap;

use super::expr::Expr;
use super::pattern::{
    Action, Bullet, Command, DirKind, Direction, Fire, Id, Labels, Link, MAX_PARAMS, Pattern,
    PatternError, Speed, SpeedKind,
};
use super::xml::{self, MAX_NESTING, NAMESPACE};

type Node<'a> = roxmltree::Node<'a, 'a>;

/// Parses BulletML `text`, naming the pattern `name`.
pub fn parse(name: &str, text: &str) -> Result<Pattern, PatternError> {
    let doc = xml::open(text)?;
    let root = doc.root_element();
    check_tree(&doc, root)?;
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
        return Err(error(
            &doc,
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
            return Err(error(
                &doc,
                child,
                format!("<{kind}> cannot appear in <bulletml>"),
            ));
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
        return Err(error(
            &doc,
            root,
            "no <action> labelled \"top\" (or \"top...\")".into(),
        ));
    }
    let labels = builder.labels;
    let pattern = builder.pattern;
    super::check::references(&pattern, &labels)?;
    Ok(pattern)
}

/// The line of `node`.
fn line(doc: &roxmltree::Document, node: Node) -> usize {
    doc.text_pos_at(node.range().start).row as usize
}

/// The element path of `node`, e.g. `bulletml/action[top]/repeat`.
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

fn error(doc: &roxmltree::Document, node: Node, message: String) -> PatternError {
    PatternError {
        line: line(doc, node),
        path: path(node),
        message,
    }
}

/// Rejects documents nested deeper than [`MAX_NESTING`] elements and elements outside
/// BulletML's namespace, without recursing.
fn check_tree(doc: &roxmltree::Document, root: Node) -> Result<(), PatternError> {
    let mut stack = vec![(root, 1usize)];
    while let Some((node, depth)) = stack.pop() {
        if depth > MAX_NESTING {
            return Err(PatternError {
                line: line(doc, node),
                path: String::new(),
                message: format!("elements nest deeper than {MAX_NESTING} levels"),
            });
        }
        if let Some(namespace) = node.tag_name().namespace()
            && namespace != NAMESPACE
        {
            return Err(error(
                doc,
                node,
                format!(
                    "<{}> is in the namespace \"{namespace}\", not BulletML's (\"{NAMESPACE}\")",
                    node.tag_name().name()
                ),
            ));
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
    /// The reference element, for the error message.
    node: roxmltree::NodeId,
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
    labels: Labels,
    pending: Vec<Pending>,
}

impl<'a> Builder<'a> {
    fn error(&self, node: Node, message: String) -> PatternError {
        error(self.doc, node, message)
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
        let mut found = node
            .children()
            .filter(|c| c.is_element() && names.contains(&c.tag_name().name()));
        let first = found.next();
        match found.next() {
            None => Ok(first),
            Some(second) => {
                Err(self.error(second, format!("more than one <{}>", names.join("> or <"))))
            }
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
        let mut params = Vec::new();
        for c in node.children().filter(|c| c.is_element()) {
            if c.tag_name().name() != "param" {
                return Err(self.error(
                    c,
                    format!("<{}> cannot appear in a reference", c.tag_name().name()),
                ));
            }
            if params.len() == MAX_PARAMS {
                return Err(self.error(
                    c,
                    format!("more than {MAX_PARAMS} <param>s (only $1-${MAX_PARAMS} can be read)"),
                ));
            }
            params.push(self.expr(c)?);
        }
        Ok(params)
    }

    /// A link to an inline element or a reference, written to `slot` once resolved.
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
                let params = self.params(node)?;
                self.pending.push(Pending {
                    kind,
                    label: label.into(),
                    node: node.id(),
                    slot,
                });
                Ok(Link::Ref {
                    id: usize::MAX,
                    params,
                })
            }
            other => Err(self.error(node, format!("<{other}> is not allowed here"))),
        }
    }

    /// Records the label of element `node` of kind `kind` (any depth, in document order, as
    /// libbulletml does): a later element of the same kind and label replaces the earlier one
    /// as the target of references; every `top...` action runs.
    fn label(&mut self, node: Node, kind: &str, id: Id) -> Result<(), PatternError> {
        if let Some(label) = node.attribute("label") {
            self.labels
                .insert((kind.to_string(), label.to_string()), id);
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
            let command = self.command(child, Slot::Command(id, index))?;
            self.pattern.actions[id].commands.push(command);
        }
        Ok(id)
    }

    fn command(&mut self, child: Node, slot: Slot) -> Result<Command, PatternError> {
        Ok(match child.tag_name().name() {
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
        })
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
        for child in node.children().filter(Node::is_element) {
            let name = child.tag_name().name();
            if !matches!(name, "direction" | "speed" | "bullet" | "bulletRef") {
                return Err(self.error(child, format!("<{name}> cannot appear in <fire>")));
            }
        }
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
            let name = child.tag_name().name();
            if !matches!(name, "direction" | "speed" | "action" | "actionRef") {
                return Err(self.error(child, format!("<{name}> cannot appear in <bullet>")));
            }
        }
        for kind in ["action", "actionRef"] {
            for child in node
                .children()
                .filter(|c| c.is_element() && c.tag_name().name() == kind)
            {
                let index = self.pattern.bullets[id].actions.len();
                let link = self.link(child, Slot::BulletAction(id, index))?;
                self.pattern.bullets[id].actions.push(link);
            }
        }
        Ok(id)
    }

    fn resolve(&mut self) -> Result<(), PatternError> {
        for pending in std::mem::take(&mut self.pending) {
            let Some(&id) = self
                .labels
                .get(&(pending.kind.to_string(), pending.label.clone()))
            else {
                let node = self
                    .doc
                    .get_node(pending.node)
                    .expect("a node of this document");
                return Err(self.error(
                    node,
                    format!("no <{}> labelled \"{}\"", pending.kind, pending.label),
                ));
            };
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
}
