//! The backtracking matcher: walks a [`Pattern`]'s items over a subject and answers exactly
//! what Lua 5.4's `match` answers, including which error it raises first.
//!
//! Lua backtracks by C recursion and refuses to nest more than 200 calls ("pattern too
//! complex"). Here the suspended choices live in a list of [`Frame`]s instead, one for each
//! call Lua would have nested, so the same patterns hit the same limit while the host stack
//! stays flat: the list never holds more than [`MAX_DEPTH`] - 1 frames, whatever the pattern.
//! Lua nests a call for a capture (open or close), for each try of `*`, `+`, `-`, and for the
//! one-repetition try of `?`; every other item continues in the same call.

use std::ops::Range;

use super::error::{MatchError, PatternError};
use super::meter::{Meter, bulk_steps};
use super::pattern::{ByteSet, Item, Pattern, Repeat};

/// Nested backtracking calls Lua allows (`MAXCCALLS` in `lstrlib.c`).
pub(crate) const MAX_DEPTH: usize = 200;

/// Captures one pattern may open (`LUA_MAXCAPTURES`).
pub(crate) const MAX_CAPTURES: usize = 32;

/// A capture's extent while matching.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Extent {
    /// Opened, not closed yet.
    Open,
    /// A `()` position capture.
    Position,
    /// Closed, this many bytes long.
    Len(usize),
}

#[derive(Clone, Copy, Debug)]
struct Slot {
    start: usize,
    extent: Extent,
}

/// One suspended choice: what to try when the rest of the pattern fails from here.
#[derive(Clone, Copy, Debug)]
enum Frame {
    /// `*` or `+`: the rest was tried after `count` repetitions from `base`; try one fewer.
    Greedy {
        base: usize,
        count: usize,
        next: usize,
    },
    /// `-`: the rest was tried at `at`; try one repetition more of item `item`.
    Lazy { item: usize, at: usize },
    /// `?`: the rest was tried after one repetition; try it without, at `at`.
    Optional { at: usize, next: usize },
    /// A capture was opened; drop it.
    Opened,
    /// Capture `index` was closed; reopen it.
    Closed { index: usize },
}

/// One capture of a successful match, as Lua returns it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Capture {
    /// These bytes of the subject.
    Text(Range<usize>),
    /// A `()` capture: the 1-based position.
    Position(usize),
}

/// Matches one pattern against one subject, keeping the captures of the last success.
pub(crate) struct Matcher<'a> {
    subject: &'a [u8],
    items: &'a [Item],
    anchored: bool,
    slots: [Slot; MAX_CAPTURES],
    level: usize,
    frames: Vec<Frame>,
}

impl<'a> Matcher<'a> {
    pub fn new(subject: &'a [u8], pattern: &'a Pattern) -> Matcher<'a> {
        Matcher {
            subject,
            items: pattern.items(),
            anchored: pattern.is_anchored(),
            slots: [Slot {
                start: 0,
                extent: Extent::Open,
            }; MAX_CAPTURES],
            level: 0,
            frames: Vec::new(),
        }
    }

    /// The first match starting at `from` or later (only at `from` if the pattern is
    /// anchored), as `string.find` searches: the subject's end is a start too.
    pub fn search<E, C: FnMut(u64) -> Result<(), E>>(
        &mut self,
        from: usize,
        meter: &mut Meter<C>,
    ) -> Result<Option<Range<usize>>, MatchError<E>> {
        let mut start = from;
        loop {
            if let Some(end) = self.match_at(start, meter)? {
                return Ok(Some(start..end));
            }
            if self.anchored || start >= self.subject.len() {
                return Ok(None);
            }
            start += 1;
        }
    }

    /// Where a match starting exactly at `start` ends, if there is one.
    pub(crate) fn match_at<E, C: FnMut(u64) -> Result<(), E>>(
        &mut self,
        start: usize,
        meter: &mut Meter<C>,
    ) -> Result<Option<usize>, MatchError<E>> {
        self.level = 0;
        self.frames.clear();
        let (mut at, mut item) = (start, 0);
        loop {
            if self.forward(&mut at, &mut item, meter)? {
                return Ok(Some(at));
            }
            if !self.backtrack(&mut at, &mut item, meter)? {
                return Ok(None);
            }
        }
    }

    /// Captures the last match made, as Lua returns them: `whole` (the match) when the
    /// pattern has none and `whole_if_none` is set.
    pub fn captures(
        &self,
        whole: Range<usize>,
        whole_if_none: bool,
    ) -> Result<Vec<Capture>, PatternError> {
        let count = if self.level == 0 && whole_if_none {
            1
        } else {
            self.level
        };
        (0..count).map(|i| self.capture(i, whole.clone())).collect()
    }

    /// Capture `index` (0-based) of the last match; with no captures, index 0 is `whole`.
    pub fn capture(&self, index: usize, whole: Range<usize>) -> Result<Capture, PatternError> {
        if index >= self.level {
            return match index {
                0 => Ok(Capture::Text(whole)),
                _ => Err(PatternError::CaptureIndex(index as i32 + 1)),
            };
        }
        let slot = self.slots[index];
        match slot.extent {
            Extent::Open => Err(PatternError::UnfinishedCapture),
            Extent::Position => Ok(Capture::Position(slot.start + 1)),
            Extent::Len(len) => Ok(Capture::Text(slot.start..slot.start + len)),
        }
    }

    /// Matches items from `*item` at `*at` until the pattern ends (true) or an item fails
    /// (false), pushing a frame wherever Lua would nest a call.
    fn forward<E, C: FnMut(u64) -> Result<(), E>>(
        &mut self,
        at: &mut usize,
        item: &mut usize,
        meter: &mut Meter<C>,
    ) -> Result<bool, MatchError<E>> {
        let (subject, items) = (self.subject, self.items);
        loop {
            meter.step(1)?;
            let Some(current) = items.get(*item) else {
                return Ok(true);
            };
            match *current {
                Item::Class { ref set, repeat } => {
                    let hit = subject.get(*at).is_some_and(|&b| set.contains(b));
                    match (hit, repeat) {
                        (false, Repeat::Once | Repeat::Plus) => return Ok(false),
                        (false, _) => *item += 1,
                        (true, Repeat::Once) => {
                            *at += 1;
                            *item += 1;
                        }
                        (true, Repeat::Optional) => {
                            self.push(Frame::Optional {
                                at: *at,
                                next: *item + 1,
                            })?;
                            *at += 1;
                            *item += 1;
                        }
                        (true, Repeat::Star | Repeat::Plus) => {
                            let base = *at + usize::from(repeat == Repeat::Plus);
                            let count = self.run_length(base, set, meter)?;
                            self.push(Frame::Greedy {
                                base,
                                count,
                                next: *item + 1,
                            })?;
                            *at = base + count;
                            *item += 1;
                        }
                        (true, Repeat::Lazy) => {
                            self.push(Frame::Lazy {
                                item: *item,
                                at: *at,
                            })?;
                            *item += 1;
                        }
                    }
                }
                Item::Open { position } => {
                    if self.level >= MAX_CAPTURES {
                        return Err(PatternError::TooManyCaptures.into());
                    }
                    self.push(Frame::Opened)?;
                    self.slots[self.level] = Slot {
                        start: *at,
                        extent: if position {
                            Extent::Position
                        } else {
                            Extent::Open
                        },
                    };
                    self.level += 1;
                    *item += 1;
                }
                Item::Close => {
                    let index = (0..self.level)
                        .rev()
                        .find(|&i| self.slots[i].extent == Extent::Open)
                        .ok_or(PatternError::InvalidCapture)?;
                    self.slots[index].extent = Extent::Len(*at - self.slots[index].start);
                    self.push(Frame::Closed { index })?;
                    *item += 1;
                }
                Item::End => {
                    if *at != subject.len() {
                        return Ok(false);
                    }
                    *item += 1;
                }
                Item::Balance { open, close } => match self.balance(*at, open, close, meter)? {
                    Some(end) => {
                        *at = end;
                        *item += 1;
                    }
                    None => return Ok(false),
                },
                Item::Frontier(ref set) => {
                    let before = if *at == 0 { 0 } else { subject[*at - 1] };
                    let here = subject.get(*at).copied().unwrap_or(0);
                    if set.contains(before) || !set.contains(here) {
                        return Ok(false);
                    }
                    *item += 1;
                }
                Item::BackRef(digit) => match self.back_reference(*at, digit, meter)? {
                    Some(end) => {
                        *at = end;
                        *item += 1;
                    }
                    None => return Ok(false),
                },
                Item::Malformed(e) => return Err(e.into()),
            }
        }
    }

    /// Unwinds frames to the newest choice left; sets where to go on from and returns true,
    /// or false when no choice is left (no match at this start).
    fn backtrack<E, C: FnMut(u64) -> Result<(), E>>(
        &mut self,
        at: &mut usize,
        item: &mut usize,
        meter: &mut Meter<C>,
    ) -> Result<bool, MatchError<E>> {
        while let Some(&frame) = self.frames.last() {
            let top = self.frames.len() - 1;
            match frame {
                Frame::Greedy { base, count, next } if count > 0 => {
                    self.frames[top] = Frame::Greedy {
                        base,
                        count: count - 1,
                        next,
                    };
                    *at = base + count - 1;
                    *item = next;
                    return Ok(true);
                }
                Frame::Lazy {
                    item: lazy,
                    at: from,
                } => {
                    meter.step(1)?;
                    let Item::Class { set, .. } = &self.items[lazy] else {
                        unreachable!("a lazy frame belongs to a class item");
                    };
                    if self.subject.get(from).is_some_and(|&b| set.contains(b)) {
                        self.frames[top] = Frame::Lazy {
                            item: lazy,
                            at: from + 1,
                        };
                        *at = from + 1;
                        *item = lazy + 1;
                        return Ok(true);
                    }
                }
                Frame::Optional { at: without, next } => {
                    self.frames.pop();
                    *at = without;
                    *item = next;
                    return Ok(true);
                }
                Frame::Opened => self.level -= 1,
                Frame::Closed { index } => self.slots[index].extent = Extent::Open,
                Frame::Greedy { .. } => {}
            }
            self.frames.pop();
        }
        Ok(false)
    }

    /// Suspends a choice, as Lua nests a call, refusing past [`MAX_DEPTH`] nested calls.
    fn push<E>(&mut self, frame: Frame) -> Result<(), MatchError<E>> {
        // The call that began the match is one of Lua's 200.
        if self.frames.len() + 1 >= MAX_DEPTH {
            return Err(PatternError::TooComplex.into());
        }
        self.frames.push(frame);
        Ok(())
    }

    /// How many bytes from `from` on are in `set`, one step each (and one for the miss).
    fn run_length<E, C: FnMut(u64) -> Result<(), E>>(
        &self,
        from: usize,
        set: &ByteSet,
        meter: &mut Meter<C>,
    ) -> Result<usize, MatchError<E>> {
        let mut count = 0;
        for &byte in &self.subject[from.min(self.subject.len())..] {
            meter.step(1)?;
            if !set.contains(byte) {
                return Ok(count);
            }
            count += 1;
        }
        meter.step(1)?;
        Ok(count)
    }

    /// `%bxy` at `at`: where the balanced run ends. The close byte is tested first, so
    /// `%b""` runs from one quote to the next.
    fn balance<E, C: FnMut(u64) -> Result<(), E>>(
        &self,
        at: usize,
        open: u8,
        close: u8,
        meter: &mut Meter<C>,
    ) -> Result<Option<usize>, MatchError<E>> {
        if self.subject.get(at) != Some(&open) {
            return Ok(None);
        }
        let rest = &self.subject[at + 1..];
        let mut depth = 1usize;
        for (offset, &byte) in rest.iter().enumerate() {
            if byte == close {
                depth -= 1;
                if depth == 0 {
                    meter.step(bulk_steps(offset))?;
                    return Ok(Some(at + 1 + offset + 1));
                }
            } else if byte == open {
                depth += 1;
            }
        }
        meter.step(bulk_steps(rest.len()))?;
        Ok(None)
    }

    /// `%N` at `at`: where the repeated capture ends, if the subject repeats it there.
    fn back_reference<E, C: FnMut(u64) -> Result<(), E>>(
        &self,
        at: usize,
        digit: u8,
        meter: &mut Meter<C>,
    ) -> Result<Option<usize>, MatchError<E>> {
        let number = i32::from(digit) - i32::from(b'0');
        let index = (number - 1) as usize;
        if number == 0 || index >= self.level || self.slots[index].extent == Extent::Open {
            return Err(PatternError::CaptureIndex(number).into());
        }
        let slot = self.slots[index];
        // A position capture never repeats (Lua compares against a huge length).
        let Extent::Len(len) = slot.extent else {
            return Ok(None);
        };
        meter.step(bulk_steps(len))?;
        let repeated = self.subject.len() - at >= len
            && self.subject[slot.start..slot.start + len] == self.subject[at..at + len];
        Ok(repeated.then_some(at + len))
    }
}

/// Where `needle` first occurs in `haystack` at `from` or later (a plain `string.find`),
/// counting one step per candidate start and per [`super::meter::BYTES_PER_STEP`] bytes
/// scanned or compared.
pub(crate) fn find_plain<E, C: FnMut(u64) -> Result<(), E>>(
    haystack: &[u8],
    needle: &[u8],
    from: usize,
    meter: &mut Meter<C>,
) -> Result<Option<usize>, MatchError<E>> {
    let Some((&first, rest)) = needle.split_first() else {
        return Ok(Some(from));
    };
    let mut at = from;
    while at + needle.len() <= haystack.len() {
        let window = &haystack[at..=haystack.len() - needle.len()];
        let Some(skip) = window.iter().position(|&b| b == first) else {
            meter.step(bulk_steps(window.len()))?;
            return Ok(None);
        };
        meter.step(bulk_steps(skip) + bulk_steps(rest.len()))?;
        at += skip;
        if haystack[at + 1..at + needle.len()] == *rest {
            return Ok(Some(at));
        }
        at += 1;
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::super::pattern::Anchoring;
    use super::*;

    fn free() -> Meter<impl FnMut(u64) -> Result<(), ()>> {
        Meter::new(|_| Ok(()))
    }

    fn find(subject: &str, pattern: &str) -> Result<Option<Range<usize>>, PatternError> {
        let pattern = Pattern::new(pattern.as_bytes(), Anchoring::Allowed);
        let mut matcher = Matcher::new(subject.as_bytes(), &pattern);
        matcher.search(0, &mut free()).map_err(|e| match e {
            MatchError::Pattern(e) => e,
            MatchError::Charge(()) => unreachable!(),
        })
    }

    #[test]
    fn finds_what_lua_finds() {
        assert_eq!(find("hello world", "o w"), Ok(Some(4..7)));
        assert_eq!(find("hello", "l+"), Ok(Some(2..4)));
        assert_eq!(find("hello", "^h.-l"), Ok(Some(0..3)));
        assert_eq!(find("hello", "^e"), Ok(None));
        assert_eq!(find("x = (a(b)c)", "%b()"), Ok(Some(4..11)));
        assert_eq!(find("THE (quick) fox", "%f[%a]%a+"), Ok(Some(0..3)));
        assert_eq!(find("abab", "(ab)%1$"), Ok(Some(0..4)));
        assert_eq!(find("abc", "x%"), Ok(None), "the bad `%` is never reached");
        assert_eq!(find("xbc", "x%"), Err(PatternError::EndsWithPercent));
        assert_eq!(find("a", "%0"), Err(PatternError::CaptureIndex(0)));
        assert_eq!(find("a", "a)"), Err(PatternError::InvalidCapture));
    }

    #[test]
    fn captures_come_out_as_lua_returns_them() {
        let pattern = Pattern::new(b"()(%d+)", Anchoring::Allowed);
        let mut matcher = Matcher::new(b"ab12", &pattern);
        let found = matcher.search(0, &mut free()).unwrap().unwrap();
        assert_eq!(found, 2..4);
        assert_eq!(
            matcher.captures(found.clone(), true),
            Ok(vec![Capture::Position(3), Capture::Text(2..4)])
        );
        assert_eq!(
            matcher.capture(2, found),
            Err(PatternError::CaptureIndex(3))
        );
    }

    #[test]
    fn nesting_stops_at_lua_depth() {
        let subject = "a".repeat(300);
        for (n, fits) in [(199, true), (200, false)] {
            let result = find(&subject, &"a?".repeat(n));
            assert_eq!(result.is_ok(), fits, "{n} optional items");
        }
        assert_eq!(
            find(&subject, &"(".repeat(40)),
            Err(PatternError::TooManyCaptures)
        );
    }

    #[test]
    fn plain_search_scans_past_false_starts() {
        let mut meter = free();
        assert_eq!(find_plain(b"aaab", b"ab", 0, &mut meter), Ok(Some(2)));
        assert_eq!(find_plain(b"aaab", b"", 4, &mut meter), Ok(Some(4)));
        assert_eq!(find_plain(b"aaab", b"ba", 0, &mut meter), Ok(None));
    }
}
