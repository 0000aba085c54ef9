//! Hostile BulletML: inputs made to crash, hang, overflow the stack or take quadratic time,
//! in the loader and at run time. Each must give a clear error or run within the frame
//! budget. The sizes are chosen so that a quadratic step would take minutes (20,000 `$rand`
//! terms took 12 s before the expression parser was made linear), so the time bounds
//! below only catch such a blow-up, never a slow machine.

use std::time::{Duration, Instant};

use super::parse;
use super::tests::{Harness, wrap_top};
use crate::bullets::unit::{CAPACITY, COMMANDS_PER_FRAME};
use crate::rng::Rng;

/// Parses `xml`, failing the test if it takes longer than a linear parse of it could.
fn timed_parse(xml: &str) -> Result<super::Pattern, String> {
    let start = Instant::now();
    let result = parse("hostile", xml).map_err(|e| e.to_string());
    let took = start.elapsed();
    assert!(
        took < Duration::from_secs(5),
        "{} bytes took {took:?} to load",
        xml.len()
    );
    result
}

fn top(body: &str) -> String {
    format!("<bulletml><action label=\"top\">{body}</action></bulletml>")
}

#[test]
fn huge_expressions_load_and_run_in_linear_time() {
    let sum = vec!["1"; 200_000].join("+");
    let pattern = timed_parse(&top(&format!(
        "<fire><speed>{sum}/100000</speed><bullet/></fire>"
    )));
    assert!(pattern.is_ok(), "{pattern:?}");
    let rands = vec!["$rand"; 200_000].join("+");
    let xml = wrap_top(&format!(
        "<repeat><times>1000</times><action><wait>{rands}</wait></action></repeat>"
    ));
    timed_parse(&xml).unwrap();
    // At run time a long expression draws on the frame's budget, so the frame stays
    // bounded however often it is evaluated.
    let mut h = Harness::new(&xml);
    let start = Instant::now();
    h.frame();
    assert!(start.elapsed() < Duration::from_secs(5));
    assert!(
        h.unit.stats.program_steps < 10,
        "paused after a few evaluations"
    );
    let deep = format!("{}1{}", "(".repeat(500_000), ")".repeat(500_000));
    timed_parse(&top(&format!("<wait>{deep}</wait>"))).unwrap();
    let signs = format!("{}1", "-".repeat(500_000));
    timed_parse(&top(&format!("<wait>{signs}</wait>"))).unwrap();
}

#[test]
fn many_references_and_labels_load_in_linear_time() {
    let refs = "<actionRef label=\"a\"><param>1</param></actionRef>".repeat(100_000);
    let xml = format!(
        "<bulletml><action label=\"top\">{refs}</action><action label=\"a\"><wait>$1</wait></action></bulletml>"
    );
    timed_parse(&xml).unwrap();
    let actions: String = (0..50_000)
        .map(|i| format!("<action label=\"a{i}\"><wait>1</wait></action>"))
        .collect();
    let xml = format!("<bulletml><action label=\"top\"/>{actions}</bulletml>");
    timed_parse(&xml).unwrap();
    // A dangling reference at the very end is still found and located quickly.
    let xml = format!(
        "<bulletml><action label=\"top\">{refs}<fireRef label=\"nowhere\"/></action><action label=\"a\"/></bulletml>"
    );
    let err = timed_parse(&xml).unwrap_err();
    assert!(err.contains("no <fire> labelled \"nowhere\""), "{err}");
}

#[test]
fn deep_documents_and_call_chains_are_refused_not_overflowed() {
    for n in [20_000, 1_000_000] {
        let xml = top(&format!(
            "{}<wait>1</wait>{}",
            "<action>".repeat(n),
            "</action>".repeat(n)
        ));
        let err = timed_parse(&xml).unwrap_err();
        assert!(err.contains("nest deeper than"), "{err}");
    }
    // A chain of references 300 calls deep: each level alone is shallow.
    let chain = |n: usize| {
        let actions: String = (0..n)
            .map(|i| {
                format!(
                    "<action label=\"a{i}\"><actionRef label=\"a{}\"/></action>",
                    i + 1
                )
            })
            .collect();
        format!(
            "<bulletml><action label=\"top\"><actionRef label=\"a0\"/></action>{actions}<action label=\"a{n}\"><wait>1</wait></action></bulletml>"
        )
    };
    let err = timed_parse(&chain(300)).unwrap_err();
    assert!(err.contains("more than 256 levels deep"), "{err}");
    let fine = chain(200);
    timed_parse(&fine).unwrap();
    let mut h = Harness::new(&fine);
    h.counts(3);
    // A long cycle is named.
    let cycle: String = (0..10_000)
        .map(|i| {
            format!(
                "<action label=\"c{i}\"><actionRef label=\"c{}\"/></action>",
                (i + 1) % 10_000
            )
        })
        .collect();
    let err = timed_parse(&format!(
        "<bulletml><action label=\"top\"><actionRef label=\"c0\"/></action>{cycle}</bulletml>"
    ))
    .unwrap_err();
    assert!(
        err.contains("references loop: action[c0] -> action[c1]"),
        "{err}"
    );
}

#[test]
fn xml_bombs_and_parser_hazards_are_refused() {
    let laughs = "<?xml version=\"1.0\"?>\n<!DOCTYPE bulletml [\n<!ENTITY a \"aaaaaaaaaa\">\n\
        <!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">\n<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">\n]>\n\
        <bulletml><action label=\"top\"><wait>&c;</wait></action></bulletml>";
    let err = timed_parse(laughs).unwrap_err();
    assert!(err.contains("internal subset"), "{err}");
    let external = "<!DOCTYPE bulletml SYSTEM \"http://example.invalid/never-fetched.dtd\">\
        <bulletml><action label=\"top\"><wait>1</wait></action></bulletml>";
    timed_parse(external).unwrap();
    let attributes: String = (0..100_000).map(|i| format!(" a{i}=\"\"")).collect();
    let err = timed_parse(&format!("<bulletml{attributes}/>")).unwrap_err();
    assert!(err.contains("attributes"), "{err}");
    let namespaces: String = (0..100_000)
        .map(|i| format!("<e xmlns:n{i}=\"u\"/>"))
        .collect();
    let err = timed_parse(&format!("<bulletml>{namespaces}</bulletml>")).unwrap_err();
    assert!(err.contains("namespaces"), "{err}");
    let foreign = "<bulletml xmlns:x=\"urn:other\"><action label=\"top\"><x:wait>1</x:wait></action></bulletml>";
    let err = timed_parse(foreign).unwrap_err();
    assert!(err.contains("namespace \"urn:other\""), "{err}");
    let params = "<param>1</param>".repeat(100);
    let err = timed_parse(&format!(
        "<bulletml><action label=\"top\"><actionRef label=\"a\">{params}</actionRef></action><action label=\"a\"/></bulletml>"
    ))
    .unwrap_err();
    assert!(err.contains("more than 99 <param>s"), "{err}");
}

#[test]
fn truncated_and_corrupted_files_give_errors_not_panics() {
    let real = include_str!("../../../../tests/bulletml/rrootage/normal/mnway.xml");
    for end in (0..real.len()).filter(|&i| real.is_char_boundary(i)) {
        let _ = parse("cut", &real[..end]);
    }
    let mut rng = Rng::new(99);
    let alphabet = b"<>/=\"' $()+-*/%.0123456789abcdefghijklmnopqrstuvwxyz[]!?&;\n";
    for _ in 0..3000 {
        let mut bytes = real.as_bytes().to_vec();
        for _ in 0..1 + rng.range_inclusive(0, 6) {
            let at = rng.range_inclusive(0, bytes.len() as i64 - 1) as usize;
            let with = alphabet[rng.range_inclusive(0, alphabet.len() as i64 - 1) as usize];
            bytes[at] = with;
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(pattern) = parse("mutant", &text) {
            // What loads must run.
            let mut h = Harness::from_pattern(pattern);
            h.counts(20);
        }
    }
}

#[test]
fn runaway_scripts_stay_within_the_frame_budget() {
    let xml = wrap_top(
        "<repeat><times>100000</times><action><repeat><times>100000</times><action><wait>0</wait></action></repeat></action></repeat>",
    );
    let mut h = Harness::new(&xml);
    h.frame();
    assert_eq!(
        h.unit.stats.program_steps,
        COMMANDS_PER_FRAME - 1,
        "every command of the budget but the one the thread's turn took"
    );
    // 100,000 top actions: each thread's turn takes a unit, so the frame stays bounded.
    let tops: String = (0..100_000)
        .map(|i| format!("<action label=\"top{i}\"><wait>1</wait><wait>1</wait></action>"))
        .collect();
    let mut h = Harness::new(&format!("<bulletml>{tops}</bulletml>"));
    let start = Instant::now();
    h.counts(5);
    assert!(start.elapsed() < Duration::from_secs(5));
    // A bullet that fires two copies of itself every turn fills the table and no more.
    let xml = "<bulletml><action label=\"top\"><fireRef label=\"f\"/></action>\
        <fire label=\"f\"><direction type=\"sequence\">37</direction><speed>0</speed><bulletRef label=\"b\"/></fire>\
        <bullet label=\"b\"><action><repeat><times>999</times><action><fireRef label=\"f\"/><fireRef label=\"f\"/><wait>1</wait></action></repeat></action></bullet></bulletml>";
    let mut h = Harness::new(xml);
    let counts = h.counts(30);
    assert_eq!(*counts.last().unwrap(), CAPACITY);
    assert!(h.unit.stats.dropped > 0);
    // Divisions by zero and absurd values read as 0 or are bounded.
    let xml = wrap_top(
        "<wait>1/0</wait><repeat><times>0/0</times><action><fire><direction>1/0</direction>\
         <speed>99999999999999999999999999999999999999999999999999</speed><bullet/></fire></action></repeat>\
         <changeDirection><direction>0/0</direction><term>99999999999999999999</term></changeDirection>\
         <wait>-99999999999999999999</wait><fire><bullet/></fire>",
    );
    let mut h = Harness::new(&xml);
    h.counts(3);
}
