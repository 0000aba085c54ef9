//! Checks of a built pattern's references, in time linear in its size: no action may call
//! itself through `<actionRef>`s and `<repeat>`s (it would recurse without end within one
//! turn, or grow its call stack for ever), and no chain of calls may be deeper than
//! [`MAX_CALL_DEPTH`] (a script's call stack, per bullet, stays small).
//!
//! A bullet may fire a bullet that fires it again: each `<fire>` starts a new script on the
//! next turn instead of calling into it, as in libbulletml, so such loops are allowed (the
//! table's capacity and the per-frame command budget bound them).

use super::pattern::{Command, Id, Labels, Pattern, PatternError};

/// Most frames (actions being run and repeats counting) one script's call stack may hold.
pub(crate) const MAX_CALL_DEPTH: usize = 256;

/// The actions `action` calls, with the frames each call adds besides the callee's own
/// (a repeat keeps a frame of its own below its body).
fn callees(pattern: &Pattern, action: Id) -> Vec<(Id, usize)> {
    pattern.actions[action]
        .commands
        .iter()
        .filter_map(|c| match c {
            Command::Action(link) => Some((link.id(), 0)),
            Command::Repeat { action, .. } => Some((action.id(), 1)),
            _ => None,
        })
        .collect()
}

/// Rejects call cycles and too deep call chains, naming them.
pub fn references(pattern: &Pattern, labels: &Labels) -> Result<(), PatternError> {
    let n = pattern.actions.len();
    let calls: Vec<Vec<(Id, usize)>> = (0..n).map(|a| callees(pattern, a)).collect();
    // 0: not seen; 1: on the search stack; 2: done, `frames` known.
    let mut state = vec![0u8; n];
    let mut frames = vec![0usize; n];
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        // Depth-first with an explicit stack, so deep call chains cannot overflow it.
        let mut stack: Vec<(Id, usize)> = vec![(root, 0)];
        state[root] = 1;
        while let Some(&mut (action, ref mut next)) = stack.last_mut() {
            if let Some(&(callee, _)) = calls[action].get(*next) {
                *next += 1;
                match state[callee] {
                    0 => {
                        state[callee] = 1;
                        stack.push((callee, 0));
                    }
                    1 => {
                        let start = stack.iter().position(|&(a, _)| a == callee).unwrap_or(0);
                        let mut cycle: Vec<Id> = stack[start..].iter().map(|&(a, _)| a).collect();
                        cycle.push(callee);
                        return Err(PatternError {
                            line: 1,
                            path: String::new(),
                            message: format!("references loop: {}", names(pattern, labels, &cycle)),
                        });
                    }
                    _ => {}
                }
            } else {
                let deepest = calls[action]
                    .iter()
                    .map(|&(callee, extra)| frames[callee] + extra)
                    .max()
                    .unwrap_or(0);
                frames[action] = 1 + deepest;
                if frames[action] > MAX_CALL_DEPTH {
                    return Err(PatternError {
                        line: 1,
                        path: String::new(),
                        message: format!(
                            "{} calls actions more than {MAX_CALL_DEPTH} levels deep",
                            names(pattern, labels, &[action])
                        ),
                    });
                }
                state[action] = 2;
                stack.pop();
            }
        }
    }
    Ok(())
}

/// Actions named `action[label]` (or "an inline <action>"), joined by arrows; a long list
/// shows its first and last few.
fn names(pattern: &Pattern, labels: &Labels, actions: &[Id]) -> String {
    let mut label_of: Vec<Option<&str>> = vec![None; pattern.actions.len()];
    for ((kind, label), &id) in labels {
        if kind == "action" {
            label_of[id] = Some(label);
        }
    }
    let name = |&a: &Id| match label_of[a] {
        Some(label) => format!("action[{label}]"),
        None => "an inline <action>".into(),
    };
    const SHOWN: usize = 4;
    if actions.len() <= 2 * SHOWN {
        return actions.iter().map(name).collect::<Vec<_>>().join(" -> ");
    }
    let first: Vec<String> = actions[..SHOWN].iter().map(name).collect();
    let last: Vec<String> = actions[actions.len() - SHOWN..].iter().map(name).collect();
    format!(
        "{} -> ({} more) -> {}",
        first.join(" -> "),
        actions.len() - 2 * SHOWN,
        last.join(" -> ")
    )
}
