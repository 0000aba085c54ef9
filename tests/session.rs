//! The core session every front end drives: a state it saved loads back from memory at once,
//! a state along its run from the nearest keyframe, any other by a full replay, and every
//! route continues exactly as the uninterrupted run does. Refusals leave the session as it
//! was; a reset forgets the states kept in memory; a faulted cart saves no state.

mod common;

use common::root;
use kairo::cart::Cart;
use kairo::hash::frame_hash_hex;
use kairo::input::{Button, InputFrame};
use kairo::movie::Movie;
use kairo::saveram::SaveRam;
use kairo::savestate::StateError;
use kairo::session::{Route, Session};

fn bundled_run(name: &str) -> (Cart, Movie) {
    let cart = Cart::open(&root().join("carts").join(name)).unwrap();
    let movie = Movie::load(&root().join("tests/movies").join(format!("{name}.kmv"))).unwrap();
    (cart, movie)
}

/// Plays `movie` on `session` from its current vblank to vblank `to`.
fn play(session: &mut Session, movie: &Movie, to: usize) {
    for n in session.history().ticks.len()..to {
        let vblank = session.tick(movie.input(n));
        assert!(vblank.fault.is_none(), "{:?}", vblank.fault);
    }
}

fn hash(session: &Session) -> String {
    frame_hash_hex(&session.console().rgba())
}

/// The picture after `to` vblanks of `movie`, in one go.
fn straight(cart: &Cart, movie: &Movie, to: usize) -> String {
    let mut session = Session::start(cart.clone(), SaveRam::default()).unwrap();
    play(&mut session, movie, to);
    hash(&session)
}

#[test]
fn a_state_this_session_saved_comes_back_from_memory_after_play_went_elsewhere() {
    let (cart, movie) = bundled_run("shmup");
    let (mid, end) = (900, 1300);
    let expected = straight(&cart, &movie, end);
    let mut session = Session::start(cart, SaveRam::default()).unwrap();
    session.keep_rewind(600);
    play(&mut session, &movie, mid);
    let state = session.save_state().unwrap();
    assert_eq!(session.kept_states().len(), 1);
    // Play elsewhere: other input for a while.
    for _ in 0..200 {
        let _ = session.tick(InputFrame::player1(Button::Left.bit() | Button::A.bit()));
    }
    assert_eq!(session.load_state(&state, "s").unwrap(), Route::Memory);
    assert_eq!(session.history().ticks.len(), mid);
    assert_eq!(session.console().vblanks(), mid as u64);
    play(&mut session, &movie, end);
    assert_eq!(hash(&session), expected);

    // The keyframes taken along the abandoned input are gone: rewinding from here and
    // playing the movie on again still gives the uninterrupted run.
    for _ in 0..300 {
        assert!(session.step_back().unwrap());
    }
    assert_eq!(session.history().ticks.len(), end - 300);
    play(&mut session, &movie, end);
    assert_eq!(hash(&session), expected);
}

#[test]
fn a_state_from_another_session_of_the_same_run_comes_back_along_this_run() {
    let (cart, movie) = bundled_run("platformer");
    let (saved_at, ahead, end) = (700, 900, 1200);
    let expected = straight(&cart, &movie, end);
    let mut other = Session::start(cart.clone(), SaveRam::default()).unwrap();
    play(&mut other, &movie, saved_at);
    let state = other.save_state().unwrap();

    // This session went further along the same input: back to the state from a keyframe.
    let mut session = Session::start(cart.clone(), SaveRam::default()).unwrap();
    session.keep_rewind(600);
    play(&mut session, &movie, ahead);
    assert_eq!(session.load_state(&state, "s").unwrap(), Route::ThisRun);
    assert_eq!(session.history().ticks.len(), saved_at);
    play(&mut session, &movie, end);
    assert_eq!(hash(&session), expected);

    // A session behind it on the same input just plays on to it.
    let mut behind = Session::start(cart.clone(), SaveRam::default()).unwrap();
    play(&mut behind, &movie, 100);
    assert_eq!(behind.load_state(&state, "s").unwrap(), Route::ThisRun);
    play(&mut behind, &movie, end);
    assert_eq!(hash(&behind), expected);

    // Without keyframes reaching back, and in a new session, the history plays again.
    let mut far = Session::start(cart.clone(), SaveRam::default()).unwrap();
    play(&mut far, &movie, ahead);
    assert_eq!(far.load_state(&state, "s").unwrap(), Route::FullReplay);
    play(&mut far, &movie, end);
    assert_eq!(hash(&far), expected);
    let mut fresh = Session::from_state(cart, &state, "s").unwrap();
    play(&mut fresh, &movie, end);
    assert_eq!(hash(&fresh), expected);
}

#[test]
fn a_reset_forgets_the_states_in_memory_and_they_play_again() {
    let (cart, movie) = bundled_run("platformer");
    let expected = straight(&cart, &movie, 700);
    let mut session = Session::start(cart, SaveRam::default()).unwrap();
    play(&mut session, &movie, 500);
    let state = session.save_state().unwrap();
    session.reset().unwrap();
    assert!(session.kept_states().is_empty());
    assert_eq!(session.history().ticks.len(), 0);
    // Just powered on, the state lies ahead on the session's own (empty) input: it plays
    // on to it in place.
    assert_eq!(session.load_state(&state, "s").unwrap(), Route::ThisRun);
    play(&mut session, &movie, 700);
    assert_eq!(hash(&session), expected);
    // Saved again after the replay, it is in memory again.
    let again = session.save_state().unwrap();
    assert_eq!(again.len(), session.save_state().unwrap().len());
    play(&mut session, &movie, 800);
    assert_eq!(session.load_state(&again, "s").unwrap(), Route::Memory);
}

#[test]
fn refused_states_leave_the_session_as_it_was() {
    let (cart, movie) = bundled_run("platformer");
    let mut session = Session::start(cart, SaveRam::default()).unwrap();
    play(&mut session, &movie, 300);
    let mut state = session.save_state().unwrap();
    play(&mut session, &movie, 400);
    let before = hash(&session);
    let last = state.len() - 1;
    state[last] ^= 0x55;
    assert!(session.load_state(&state, "s.kst").is_err());
    let (shmup, _) = bundled_run("shmup");
    let mut other = Session::start(shmup, SaveRam::default()).unwrap();
    let theirs = other.save_state().unwrap();
    let e = session.load_state(&theirs, "s.kst").unwrap_err();
    assert!(matches!(e, StateError::OtherCart { .. }), "{e}");
    assert_eq!(session.history().ticks.len(), 400);
    assert_eq!(hash(&session), before);
}

#[test]
fn a_cart_that_stopped_saves_no_state_and_its_fault_names_the_frame() {
    let cart = common::lua_cart("function update() if frame() == 5 then error('boom') end end");
    let mut session = Session::start(cart, SaveRam::default()).unwrap();
    for _ in 0..10 {
        let _ = session.tick(InputFrame::NONE);
    }
    let fault = session.fault().expect("a fault");
    assert_eq!(fault.frame, 5);
    let e = session.save_state().unwrap_err();
    assert!(
        e.to_string().starts_with("the cart stopped at frame 5"),
        "{e}"
    );
}
