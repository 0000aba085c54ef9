//! The note line at the bottom of the screen: a note shows for a while ([`Notes::show`]);
//! a status line (netplay's ping) takes the place only when no note is up
//! ([`Notes::status`]); each host vblank counts the time down ([`Notes::tick`]).

/// The note showing, if any, and the vblanks it has left.
#[derive(Debug, Default)]
pub struct Notes {
    shown: Option<(String, u32)>,
}

/// Vblanks a status line stays up unless it is said again.
const STATUS_VBLANKS: u32 = 2;

impl Notes {
    /// Shows `text` for `vblanks`.
    pub fn show(&mut self, text: String, vblanks: u32) {
        self.shown = Some((text, vblanks));
    }

    /// Shows `text` as the status line, unless a note is up.
    pub fn status(&mut self, text: String) {
        match &self.shown {
            Some((_, left)) if *left > STATUS_VBLANKS => {}
            _ => self.shown = Some((text, STATUS_VBLANKS)),
        }
    }

    /// One host vblank: the note's time runs down, and it goes when it is up.
    pub fn tick(&mut self) {
        if let Some((_, left)) = &mut self.shown {
            *left = left.saturating_sub(1);
            if *left == 0 {
                self.shown = None;
            }
        }
    }

    /// The text showing.
    pub fn text(&self) -> Option<&str> {
        self.shown.as_ref().map(|(text, _)| text.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_line_waits_for_a_note_to_go() {
        let mut notes = Notes::default();
        notes.show("saved".into(), 5);
        notes.status("NET ping 20 ms".into());
        assert_eq!(notes.text(), Some("saved"));
        for _ in 0..4 {
            notes.tick();
        }
        notes.status("NET ping 20 ms".into());
        assert_eq!(notes.text(), Some("NET ping 20 ms"));
        notes.tick();
        notes.tick();
        assert_eq!(notes.text(), None);
    }
}
