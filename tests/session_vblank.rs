//! `Session::tick` answers with everything the vblank produced, in one value, taken out of
//! the console so nothing piles up: the frame's report (or none while a slow frame still
//! runs), its sound, the lines logged, whether save RAM was written, and the fault once the
//! cart stops. Power-on's own output is had once, before the first vblank or with it.

mod common;

use common::lua_cart;
use kairo::input::InputFrame;
use kairo::saveram::SaveRam;
use kairo::session::Session;

const CART: &str = r#"
log("powered on")
local t = 0
function update()
  t = t + 1
  if t == 3 then log("frame three") end
  if t == 5 then sd_set(0, 42) end
  if t == 8 then error("stop here") end
end
function draw() cls(1) end
"#;

#[test]
fn each_vblank_hands_over_its_sound_log_save_writes_and_fault() {
    let mut session = Session::start(lua_cart(CART), SaveRam::default()).unwrap();
    let power_on = session.take_power_on();
    assert_eq!(power_on.log, ["powered on"]);
    assert!(!power_on.picture_changed());
    let mut logged = Vec::new();
    for n in 1..=10u64 {
        let vblank = session.tick(InputFrame::NONE);
        // 48 kHz stereo: 800 frames of two samples every vblank, taken each time.
        assert_eq!(vblank.audio.len(), 1600, "vblank {n}");
        logged.extend(vblank.log.iter().map(|l| (n, l.clone())));
        assert_eq!(vblank.save_written, n == 5, "vblank {n}");
        match n {
            1..=7 => {
                assert!(vblank.picture_changed(), "vblank {n}");
                assert!(vblank.fault.is_none());
            }
            _ => {
                // The fault, and every vblank after it says so too.
                let fault = vblank.fault.as_ref().expect("the cart stopped");
                assert_eq!(fault.frame, 7);
                assert!(fault.error.to_string().contains("stop here"), "{fault:?}");
                assert!(!vblank.picture_changed());
            }
        }
    }
    assert_eq!(logged, [(3, "frame three".to_string())]);
    assert_eq!(session.console().machine().save().slot(0).unwrap(), 42.0);
}

#[test]
fn power_on_output_not_taken_comes_with_the_first_vblank() {
    let mut session = Session::start(lua_cart(CART), SaveRam::default()).unwrap();
    let first = session.tick(InputFrame::NONE);
    assert_eq!(first.log, ["powered on"]);
    assert!(session.tick(InputFrame::NONE).log.is_empty());
}

#[test]
fn save_writes_are_reported_once_power_on_included_and_never_those_of_a_loaded_past() {
    const WRITER: &str = r#"
sd_set(1, sd_get(1) + 1)
function update() if frame() == 2 then sd_set(0, frame()) end end
function draw() end
"#;
    let mut session = Session::start(lua_cart(WRITER), SaveRam::default()).unwrap();
    assert!(session.take_power_on().save_written, "the main chunk wrote");
    assert!(!session.take_power_on().save_written, "reported once");
    let state = session.save_state().unwrap();
    let written: Vec<bool> = (0..5)
        .map(|_| session.tick(InputFrame::NONE).save_written)
        .collect();
    assert_eq!(written, [false, false, true, false, false]);
    // Back to the state (its run wrote nothing yet), then forward past the write again:
    // reported as the game writes, not as the load changed save RAM.
    session.load_state(&state, "state").unwrap();
    let written: Vec<bool> = (0..4)
        .map(|_| session.tick(InputFrame::NONE).save_written)
        .collect();
    assert_eq!(written, [false, false, true, false]);
    // A reset powers on again (save RAM kept): the main chunk's write is power-on's.
    session.reset().unwrap();
    assert!(session.take_power_on().save_written);
}
