//! Printing for the command line and the host's log lines that never panics (`println!`
//! panics when standard output is gone). When the reader goes away early
//! (`kairo headless CART | head -c 1`), writes fail with a broken pipe: from then on output is
//! dropped quietly and the command finishes as usual — files it was asked to write are still
//! written and the exit status is the one it would have had. Any other write error (a full
//! disk) is kept and reported by [`Printer::finish`] as one line, and the command fails.

use std::io::{self, ErrorKind, Write};

/// A line printer over standard output (or any writer, for tests).
pub struct Printer<W: Write> {
    out: W,
    /// The first write error, once there is one; nothing more is written after it.
    error: Option<io::Error>,
}

impl Printer<io::Stdout> {
    /// A printer over standard output.
    pub fn stdout() -> Self {
        Printer::new(io::stdout())
    }
}

impl<W: Write> Printer<W> {
    /// A printer over `out`.
    pub fn new(out: W) -> Self {
        Printer { out, error: None }
    }

    /// Prints `text` and a newline.
    pub fn line(&mut self, text: &str) {
        self.text(text);
        self.text("\n");
    }

    /// Prints `text` as it is.
    pub fn text(&mut self, text: &str) {
        if self.error.is_none()
            && let Err(e) = self.out.write_all(text.as_bytes())
        {
            self.error = Some(e);
        }
    }

    /// Whether output has stopped (the reader went away or a write failed).
    pub fn stopped(&self) -> bool {
        self.error.is_some()
    }

    /// Flushes; `Err` for a write error other than a broken pipe.
    pub fn finish(mut self) -> Result<(), io::Error> {
        if self.error.is_none()
            && let Err(e) = self.out.flush()
        {
            self.error = Some(e);
        }
        match self.error {
            Some(e) if e.kind() != ErrorKind::BrokenPipe => Err(e),
            _ => Ok(()),
        }
    }
}

/// Prints one line to standard output, dropping it if that fails (log lines in the window).
pub fn print_line(text: &str) {
    let _ = writeln!(io::stdout().lock(), "{text}");
}

/// Prints one line to standard error, dropping it if that fails.
pub fn eprint_line(text: &str) {
    let _ = writeln!(io::stderr().lock(), "{text}");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that takes `room` bytes, then fails with `kind`.
    struct Closing {
        taken: Vec<u8>,
        room: usize,
        kind: ErrorKind,
    }

    impl Write for Closing {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.taken.len() + buf.len() > self.room {
                return Err(io::Error::from(self.kind));
            }
            self.taken.extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_broken_pipe_stops_output_quietly() {
        let mut printer = Printer::new(Closing {
            taken: Vec::new(),
            room: 6,
            kind: ErrorKind::BrokenPipe,
        });
        printer.line("hello");
        assert!(!printer.stopped());
        printer.line("world");
        assert!(printer.stopped());
        printer.line("more");
        assert_eq!(printer.out.taken, b"hello\n");
        assert!(printer.finish().is_ok());
    }

    #[test]
    fn other_write_errors_are_reported_once() {
        let mut printer = Printer::new(Closing {
            taken: Vec::new(),
            room: 0,
            kind: ErrorKind::StorageFull,
        });
        printer.line("hello");
        printer.line("again");
        let err = printer.finish().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::StorageFull);
    }
}
