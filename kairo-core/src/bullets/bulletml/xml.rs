//! Reading a BulletML file as XML: what is accepted before `roxmltree` builds the tree.
//!
//! - A `<!DOCTYPE ...>` is accepted and ignored (every ABA Games file starts with one naming
//!   `bulletml.dtd`); nothing is ever fetched or read. A DOCTYPE with an internal subset
//!   (`[...]`) is refused: it could declare entities, and entity expansion is the one way a
//!   small file turns into a huge document.
//! - The BulletML namespace (`xmlns="http://www.asahi-net.or.jp/~cs8k-cyu/bulletml"`) or none;
//!   elements in any other namespace are refused (see [`NAMESPACE`]).
//! - A linear pre-scan refuses, before the parser sees them, the inputs on which the parser
//!   itself would take quadratic time or deep nesting: more than [`MAX_ATTRIBUTES`]
//!   attributes on one element, more than [`MAX_NAMESPACE_DECLARATIONS`] namespace
//!   declarations, elements nested deeper than [`MAX_NESTING`].

use super::pattern::PatternError;

/// The namespace of BulletML documents.
pub(crate) const NAMESPACE: &str = "http://www.asahi-net.or.jp/~cs8k-cyu/bulletml";
/// Deepest element nesting a pattern may have (the pattern builder recurses once per level).
pub(crate) const MAX_NESTING: usize = 128;
/// Most attributes one element may have (BulletML uses at most three).
pub(crate) const MAX_ATTRIBUTES: usize = 32;
/// Most `xmlns` declarations a document may have.
pub(crate) const MAX_NAMESPACE_DECLARATIONS: usize = 32;

/// Parses `text` as XML under the rules above.
pub fn open(text: &str) -> Result<roxmltree::Document<'_>, PatternError> {
    prescan(text)?;
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    roxmltree::Document::parse_with_options(text, options).map_err(|e| PatternError {
        line: e.pos().row as usize,
        path: String::new(),
        message: format!("malformed XML: {e}"),
    })
}

/// Whether a cart's `.xml` file is meant as a BulletML pattern: its root is `<bulletml>`, or
/// it does not parse but mentions `<bulletml` (so that its error is reported, not skipped).
pub(crate) fn is_pattern_document(text: &str) -> bool {
    match open(text) {
        Ok(doc) => doc.root_element().tag_name().name() == "bulletml",
        Err(_) => text.contains("<bulletml"),
    }
}

/// The 1-based line of byte `offset` in `text`.
fn line_at(text: &str, offset: usize) -> usize {
    1 + text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

/// A cursor over the bytes of the document for the pre-scan. Every method moves forward
/// only, so the whole scan is linear in the length of the text.
struct Scan<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
}

impl Scan<'_> {
    fn error(&self, offset: usize, message: String) -> PatternError {
        PatternError {
            line: line_at(self.text, offset),
            path: String::new(),
            message,
        }
    }

    fn starts_with(&self, s: &str) -> bool {
        self.bytes[self.at..].starts_with(s.as_bytes())
    }

    /// Moves just past the next `end`, or to the end of the text.
    fn skip_past(&mut self, end: &str) {
        match self.text[self.at..].find(end) {
            Some(i) => self.at += i + end.len(),
            None => self.at = self.bytes.len(),
        }
    }

    fn skip_spaces(&mut self) {
        while self.at < self.bytes.len() && self.bytes[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }

    /// Skips comments, processing instructions and spaces.
    fn skip_misc(&mut self) {
        loop {
            self.skip_spaces();
            if self.starts_with("<!--") {
                self.skip_past("-->");
            } else if self.starts_with("<?") {
                self.skip_past("?>");
            } else {
                return;
            }
        }
    }

    /// Reads a markup declaration or tag up to its closing `>`, outside quotes. Calls
    /// `outside` with each byte offset not inside quotes; stops early (returning that
    /// offset) when it returns true.
    fn tag(&mut self, mut outside: impl FnMut(&[u8], usize) -> bool) -> Option<usize> {
        let mut quote = None;
        while self.at < self.bytes.len() {
            let b = self.bytes[self.at];
            match quote {
                Some(q) if b == q => quote = None,
                Some(_) => {}
                None if b == b'"' || b == b'\'' => quote = Some(b),
                None if b == b'>' => {
                    self.at += 1;
                    return None;
                }
                None => {
                    if outside(self.bytes, self.at) {
                        return Some(self.at);
                    }
                }
            }
            self.at += 1;
        }
        None
    }
}

/// The linear pre-scan described in the module documentation. It only needs to be right
/// for well-formed documents: the parser reports everything else.
fn prescan(text: &str) -> Result<(), PatternError> {
    let mut s = Scan {
        text,
        bytes: text.as_bytes(),
        at: 0,
    };
    if s.starts_with("\u{feff}") {
        s.at += 3;
    }
    s.skip_misc();
    if s.starts_with("<!DOCTYPE") {
        let start = s.at;
        if let Some(at) = s.tag(|bytes, i| bytes[i] == b'[') {
            return Err(s.error(
                at,
                format!(
                    "a DOCTYPE with an internal subset (`[...]`) is not supported; \
                     `<!DOCTYPE bulletml SYSTEM \"bulletml.dtd\">` is (line {} starts it)",
                    line_at(text, start)
                ),
            ));
        }
    }
    let mut depth = 0usize;
    let mut declarations = 0usize;
    while let Some(i) = text[s.at..].find('<') {
        s.at += i;
        if s.starts_with("<!--") {
            s.skip_past("-->");
        } else if s.starts_with("<![CDATA[") {
            s.skip_past("]]>");
        } else if s.starts_with("<?") {
            s.skip_past("?>");
        } else if s.starts_with("<!") {
            s.tag(|_, _| false);
        } else if s.starts_with("</") {
            depth = depth.saturating_sub(1);
            s.tag(|_, _| false);
        } else {
            let start = s.at;
            let mut attributes = 0usize;
            let mut names_xmlns = 0usize;
            let mut last = b'<';
            s.tag(|bytes, i| {
                let b = bytes[i];
                if b == b'=' {
                    attributes += 1;
                }
                // An attribute name starting with `xmlns` after a space.
                if bytes[i..].starts_with(b"xmlns") && bytes[i - 1].is_ascii_whitespace() {
                    names_xmlns += 1;
                }
                if !b.is_ascii_whitespace() {
                    last = b;
                }
                false
            });
            if attributes > MAX_ATTRIBUTES {
                return Err(s.error(
                    start,
                    format!("an element has more than {MAX_ATTRIBUTES} attributes"),
                ));
            }
            declarations += names_xmlns;
            if declarations > MAX_NAMESPACE_DECLARATIONS {
                return Err(s.error(
                    start,
                    format!(
                        "the document declares more than {MAX_NAMESPACE_DECLARATIONS} namespaces"
                    ),
                ));
            }
            if last != b'/' {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(s.error(
                        start,
                        format!("elements nest deeper than {MAX_NESTING} levels"),
                    ));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const ABA_HEAD: &str = "<?xml version=\"1.0\" ?>\n\
        <!DOCTYPE bulletml SYSTEM \"http://www.asahi-net.or.jp/~cs8k-cyu/bulletml/bulletml.dtd\">\n";

    #[test]
    fn a_doctype_and_the_bulletml_namespace_are_accepted() {
        let text = format!(
            "{ABA_HEAD}<bulletml type=\"vertical\" xmlns=\"{NAMESPACE}\"><action label=\"top\"/></bulletml>"
        );
        let doc = open(&text).unwrap();
        assert_eq!(doc.root_element().tag_name().name(), "bulletml");
        assert_eq!(doc.root_element().tag_name().namespace(), Some(NAMESPACE));
        assert!(is_pattern_document(&text));
        // A `>` or `[` inside the DOCTYPE's quoted system id is not its end or a subset.
        let quoted = "<!DOCTYPE bulletml SYSTEM \"a>b[c].dtd\"><bulletml/>";
        assert!(open(quoted).is_ok());
    }

    #[test]
    fn internal_subsets_are_refused_with_the_line() {
        let text =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE bulletml [\n<!ENTITY a \"b\">\n]>\n<bulletml/>";
        let err = open(text).unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.message.contains("internal subset"), "{err}");
        assert!(is_pattern_document(text), "reported, not skipped");
    }

    #[test]
    fn other_xml_is_not_a_pattern() {
        assert!(!is_pattern_document("<map><layer/></map>"));
        assert!(!is_pattern_document("<map>"));
        assert!(is_pattern_document("<bulletml><action>"));
    }

    #[test]
    fn parser_hazards_are_refused_before_parsing() {
        let many = (0..40).map(|i| format!(" a{i}=\"1\"")).collect::<String>();
        let err = open(&format!("<bulletml{many}/>")).unwrap_err();
        assert!(err.message.contains("attributes"), "{err}");
        let spaces = (0..40)
            .map(|i| format!("<e xmlns:n{i}=\"u{i}\">"))
            .collect::<String>();
        let err = open(&format!("<bulletml>{spaces}")).unwrap_err();
        assert!(err.message.contains("namespaces"), "{err}");
        let deep = format!("<bulletml>{}", "<action>".repeat(1_000_000));
        let err = open(&deep).unwrap_err();
        assert!(err.message.contains("nest deeper"), "{err}");
        // Quoted `>`, comments, CDATA and self-closing tags do not confuse the depth count.
        let fine = format!(
            "<bulletml>{}<!-- <a><b><c> --><![CDATA[<x>]]><wait label=\"a>b\">1</wait></bulletml>",
            "<vanish/>".repeat(1000)
        );
        assert!(open(&fine).is_ok());
    }
}
