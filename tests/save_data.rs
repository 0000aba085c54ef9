//! Cart save data: save RAM read and written from Lua, kept between runs under the cart's
//! `save_id` (`kairo headless --data DIR`), falling back over damaged files, recorded in movies
//! so replays match, and never touched by a headless run without `--data`.

mod common;

use common::{console, kairo, root, temp_dir};
use kairo::input::InputFrame;

const COUNTER: &str = "tests/carts/state_save_counter";
const FILE: &str = "kairo-test-save-counter.ksav";

fn run_counter(extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["headless", COUNTER, "--frames", "60"];
    args.extend_from_slice(extra);
    kairo(&args, &root())
}

#[test]
fn save_ram_survives_between_runs_only_with_data() {
    let dir = temp_dir("save-runs");
    let data = dir.to_str().unwrap();
    for (n, earlier) in [(1, 0), (2, 1), (3, 2)] {
        let (code, out, err) = run_counter(&["--data", data]);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.starts_with(&format!("run {n}, {earlier} earlier runs recorded\n")),
            "{out}"
        );
        assert!(err.is_empty(), "{err}");
    }
    // Without --data the run starts empty and writes nothing.
    let before = std::fs::read(dir.join(FILE)).unwrap();
    let (code, out, _) = run_counter(&[]);
    assert_eq!(code, 0);
    assert!(out.starts_with("run 1, 0 earlier"), "{out}");
    assert_eq!(std::fs::read(dir.join(FILE)).unwrap(), before);
}

#[test]
fn a_damaged_save_file_falls_back_with_one_warning_and_is_kept() {
    let dir = temp_dir("save-damaged");
    let data = dir.to_str().unwrap();
    for _ in 0..2 {
        assert_eq!(run_counter(&["--data", data]).0, 0);
    }
    // Cut the file short: the previous copy (one run) is used.
    let file = dir.join(FILE);
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() - 7]).unwrap();
    let (code, out, err) = run_counter(&["--data", data]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("run 2, 1 earlier"), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("using the previous copy"), "{err}");
    assert!(dir.join(format!("{FILE}.damaged")).exists());

    // Both copies garbage: empty save RAM, one warning, and the run goes on.
    std::fs::write(&file, b"not a save").unwrap();
    std::fs::write(dir.join(format!("{FILE}.bak")), b"KAIROSAV\x01\x00junk").unwrap();
    let (code, out, err) = run_counter(&["--data", data]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("run 1, 0 earlier"), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("starts empty"), "{err}");
}

#[test]
fn a_movie_records_the_save_ram_it_started_with_and_replays_with_it() {
    let dir = temp_dir("save-movie");
    let data = dir.to_str().unwrap();
    assert_eq!(run_counter(&["--data", data]).0, 0);
    let movie = dir.join("run.kmv");
    let (code, recorded, err) = run_counter(&[
        "--data",
        data,
        "--record",
        movie.to_str().unwrap(),
        "--hash",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(recorded.starts_with("run 2, 1 earlier"), "{recorded}");
    let text = std::fs::read_to_string(&movie).unwrap();
    assert!(text.contains("\nsave "), "{text}");
    // Replayed with no --data, the movie's save RAM is what init sees.
    let (code, replayed, err) = run_counter(&["--input", movie.to_str().unwrap(), "--hash"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(replayed, recorded);
}

#[test]
fn the_shmup_keeps_its_high_score_and_shows_it_next_time() {
    let dir = temp_dir("save-shmup");
    let data = dir.to_str().unwrap();
    let (code, out, err) = kairo(
        &[
            "headless",
            "carts/shmup",
            "--input",
            "tests/movies/shmup.kmv",
            "--frames",
            "7000",
            "--data",
            data,
            // A replay stores its save RAM only when asked to.
            "--write-save",
        ],
        &root(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("shmup: clear"), "{out}");
    let ram =
        kairo::saveram::SaveRam::from_bytes(&kairo::savefile::load(&dir, "kairo.nova-lance").data);
    let hiscore = ram.slot(0).unwrap();
    assert!(hiscore > 20_000.0, "the clear beat the table: {hiscore}");
    // The next power-on with that folder shows it: the title differs from a fresh one.
    let title = |extra: &[&str]| {
        let mut args = vec!["headless", "carts/shmup", "--frames", "60", "--hash"];
        args.extend_from_slice(extra);
        let (code, out, err) = kairo(&args, &root());
        assert_eq!(code, 0, "{err}");
        out.lines().last().unwrap().to_string()
    };
    assert_ne!(title(&["--data", data]), title(&[]));
}

#[test]
fn slots_and_values_from_lua() {
    let mut c = console(
        r#"
        function init()
          sd_set(0, 1250)
          sd_set(63, 0.5)
          sd_write({ name = "ACE", scores = { 10, 20, 30 }, [true] = false, pi = 3.25 })
        end
        function update()
          local v = sd_read()
          assert(sd_get(0) == 1250 and math.type(sd_get(0)) == "integer")
          assert(sd_get(63) == 0.5 and sd_get(1) == 0)
          assert(v.name == "ACE" and v.scores[3] == 30 and v[true] == false and v.pi == 3.25)
          assert(not pcall(sd_get, 64) and not pcall(sd_set, -1, 0))
          local ok, e = pcall(sd_write, { f = print })
          assert(not ok and tostring(e):find("not a function"), tostring(e))
          local cyclic = {}
          cyclic.me = cyclic
          ok, e = pcall(sd_write, cyclic)
          assert(not ok and tostring(e):find("nested deeper"), tostring(e))
          ok, e = pcall(sd_write, string.rep("x", 4000))
          assert(not ok and tostring(e):find("does not fit"), tostring(e))
          assert(sd_read().name == "ACE", "a refused write stores nothing")
          sd_write(nil)
          assert(sd_read() == nil)
          sd_clear()
          assert(sd_get(0) == 0)
          log("ok")
        end
        "#,
    );
    c.run_frame(InputFrame::NONE).unwrap();
    assert_eq!(c.take_log(), ["ok"]);
}

#[test]
fn a_reset_keeps_save_ram_and_garbage_reads_as_nil_with_a_reason() {
    let mut c = console(
        r#"
        function init() log("boot " .. sd_get(5)); sd_set(5, sd_get(5) + 1) end
        function update()
          local v, why = sd_read()
          log(tostring(v) .. " " .. tostring(why))
        end
        "#,
    );
    c.reset().unwrap();
    assert_eq!(c.take_log(), ["boot 0", "boot 1"]);
    // Bytes no sd_write wrote (an older version of the cart, say): nil and why.
    let mut bytes = c.machine().save().bytes().to_vec();
    bytes[512] = 9;
    c.machine_mut()
        .set_save(kairo::saveram::SaveRam::from_bytes(&bytes));
    c.run_frame(InputFrame::NONE).unwrap();
    assert_eq!(
        c.take_log(),
        ["nil save RAM holds no value: unknown tag 9 at byte 0"]
    );
}

#[test]
fn a_bad_save_id_is_a_located_cart_error() {
    let dir = temp_dir("save-bad-id");
    std::fs::write(
        dir.join("cart.toml"),
        "name = \"x\"\nsave_id = \"../escape\"\n",
    )
    .unwrap();
    std::fs::write(dir.join("main.lua"), "").unwrap();
    let (code, out, _) = kairo(&["check", dir.to_str().unwrap()], &root());
    assert_eq!(code, 1);
    assert!(
        out.contains("cart.toml:2: save_id `../escape`: use 1-64 of A-Z a-z 0-9 . _ -"),
        "{out}"
    );
}
