//! The window: winit's event loop and a `pixels` surface showing the shell's picture through
//! the display filter (`filter`: sharp integer scaling, letterboxed, by default); keys, drops
//! and pads forwarded to the shell; vblanks paced by the [`Pacer`] on the wall clock,
//! independent of the display's refresh rate.
//!
//! With `KAIRO_FRAME_TIMES=N` set, every N frames the window logs on stderr how long drawing
//! a frame took with the filter shown (waiting for the GPU to finish it), for
//! docs/display.md's figures; `KAIRO_PIXELS_RENDERER=1` draws with `pixels`' own scaling
//! renderer instead of the filters, the figure to compare them with.

use std::sync::Arc;
use std::time::{Duration, Instant};

use pixels::{Pixels, SurfaceTexture};
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{DeviceEvent, DeviceId, ElementState, KeyEvent, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, DeviceEvents};
use winit::keyboard::{KeyCode, ModifiersState, PhysicalKey};
use winit::window::{Fullscreen, Window, WindowId};

use super::audio::AudioOut;
use super::filter::FilterRenderer;
use super::pacing::Pacer;
use super::pads::Pads;
use super::shell::Shell;
use super::{HostError, WindowOptions};
use crate::spec::{SCREEN_H, SCREEN_W};
use crate::views::display_filter::FilterParams;

/// The draw times of the last frames, for `KAIRO_FRAME_TIMES`.
struct FrameTimes {
    every: usize,
    micros: Vec<f32>,
    since: Instant,
    /// The process's CPU time then (Linux), which a busy machine inflates less than the
    /// wall clock.
    cpu_since: Option<f64>,
}

/// Seconds of CPU the whole process (the machine, the window, the software GPU's threads)
/// has used, where `/proc/self/stat` says (Linux: 100 ticks a second).
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<f64>().ok();
    Some((ticks(11)? + ticks(12)?) / 100.0)
}

impl FrameTimes {
    fn from_env() -> Option<FrameTimes> {
        let every = std::env::var("KAIRO_FRAME_TIMES").ok()?.parse().ok()?;
        (every > 0).then(|| FrameTimes {
            every,
            micros: Vec::new(),
            since: Instant::now(),
            cpu_since: process_cpu_seconds(),
        })
    }

    /// Adds one frame's draw time; every `every` frames, the line to log.
    fn add(&mut self, micros: f32, what: &str) -> Option<String> {
        self.micros.push(micros);
        if self.micros.len() < self.every {
            return None;
        }
        let n = self.micros.len() as f32;
        let mean = self.micros.iter().sum::<f32>() / n / 1000.0;
        let max = self.micros.iter().fold(0.0f32, |a, &b| a.max(b)) / 1000.0;
        let rate = n / self.since.elapsed().as_secs_f32();
        let cpu_now = process_cpu_seconds();
        let cpu = match (self.cpu_since, cpu_now) {
            (Some(then), Some(now)) => {
                format!(
                    ", process CPU {:.2} ms a frame",
                    (now - then) * 1000.0 / n as f64
                )
            }
            _ => String::new(),
        };
        self.micros.clear();
        self.since = Instant::now();
        self.cpu_since = cpu_now;
        Some(format!(
            "frame time: {what}: mean {mean:.2} ms, max {max:.2} ms over {n} frames, {rate:.1} frames/s{cpu}"
        ))
    }
}

/// The running window application.
pub struct App {
    options: WindowOptions,
    window: Option<Arc<Window>>,
    pixels: Option<Pixels<'static>>,
    /// The display filters' pipelines over `pixels`' texture.
    filters: Option<FilterRenderer>,
    /// Every filter's parameters (the shaders' uniforms).
    params: FilterParams,
    /// The surface's size in pixels.
    surface: (u32, u32),
    /// `KAIRO_FRAME_TIMES`: frames per logged figure, and the draw times gathered so far.
    frame_times: Option<FrameTimes>,
    shell: Shell,
    pads: Pads,
    /// The sound card; `None` runs silent.
    sound: Option<AudioOut>,
    clock: Instant,
    pacer: Pacer,
    modifiers: ModifiersState,
    minimized: bool,
    /// Whether the window has had keyboard focus. Until it has (an X server without a window
    /// manager never gives it), keys are read from raw device events instead.
    ever_focused: bool,
    title: String,
    error: Option<HostError>,
}

impl App {
    pub fn new(options: WindowOptions) -> App {
        let mut shell = Shell::new("carts".into(), super::config::config_dir());
        shell.set_data_dir(crate::saving::ram::data_dir());
        if let Some(pattern) = &options.pattern {
            let preview = options.preview;
            let build: super::shell::Build = Arc::new(move |path: &std::path::Path| {
                crate::commands::preview::previewer_cart(path, preview)
            });
            shell.open_built(pattern, build);
        } else if let Some(cart) = &options.cart {
            shell.open(cart);
            if let Some(net) = &options.netplay {
                shell.start_netplay(net.clone());
            }
        }
        if options.profile {
            shell.set_profiler(Some(crate::profiling::overlay::OverlayMode::Full));
        }
        if let Some(filter) = options.filter {
            shell.set_display_filter(filter);
        }
        App {
            options,
            window: None,
            pixels: None,
            filters: None,
            params: FilterParams::default(),
            surface: (1, 1),
            frame_times: FrameTimes::from_env(),
            shell,
            pads: Pads::start(),
            sound: AudioOut::open(),
            clock: Instant::now(),
            pacer: Pacer::new(0),
            modifiers: ModifiersState::empty(),
            minimized: false,
            ever_focused: false,
            title: String::new(),
            error: None,
        }
    }

    /// How the window ended.
    pub(crate) fn into_result(self) -> Result<(), HostError> {
        self.error.map_or(Ok(()), Err)
    }

    fn fail(&mut self, event_loop: &ActiveEventLoop, error: HostError) {
        self.error = Some(error);
        event_loop.exit();
    }

    fn now_ns(&self) -> u64 {
        self.clock.elapsed().as_nanos() as u64
    }

    fn toggle_fullscreen(&self) {
        if let Some(window) = &self.window {
            let next = match window.fullscreen() {
                Some(_) => None,
                None => Some(Fullscreen::Borderless(None)),
            };
            window.set_fullscreen(next);
        }
    }

    fn key(&mut self, event: &KeyEvent) {
        self.physical_key(event.physical_key, event.state, event.repeat);
    }

    fn physical_key(&mut self, key: PhysicalKey, state: ElementState, repeat: bool) {
        let PhysicalKey::Code(code) = key else {
            return;
        };
        let down = state == ElementState::Pressed;
        let fresh = down && !repeat;
        match code {
            KeyCode::F11 if fresh => self.toggle_fullscreen(),
            KeyCode::Enter if fresh && self.modifiers.alt_key() => self.toggle_fullscreen(),
            KeyCode::Escape if fresh => self.shell.escape(),
            KeyCode::F3 if fresh => self.shell.cycle_profiler(),
            KeyCode::F1 if fresh => self.shell.next_slot(),
            KeyCode::F2 if fresh => self.shell.save_slot(self.shell.slot()),
            KeyCode::F4 if fresh => self.shell.load_slot(self.shell.slot()),
            KeyCode::F5 if fresh => self.shell.toggle_debug_pause(),
            KeyCode::F6 if fresh => self.shell.step(),
            KeyCode::F7 if fresh => self.shell.toggle_recording(),
            KeyCode::F8 if fresh => self.shell.toggle_debug_menu(),
            KeyCode::F9 if fresh => self.shell.save_gif(),
            KeyCode::F10 if fresh => self.shell.cycle_display_filter(),
            KeyCode::F12 if fresh => self.shell.screenshot(),
            KeyCode::Tab if !repeat => self.shell.set_fast_forward(down),
            KeyCode::Backspace if !repeat => {
                self.shell.set_rewind_held(down);
                // The netplay screen takes it to edit an address.
                self.shell.key("Backspace", down);
            }
            _ if !repeat => self.shell.key(&format!("{code:?}"), down),
            _ => {}
        }
    }

    fn redraw(&mut self, event_loop: &ActiveEventLoop) {
        if self.minimized {
            return;
        }
        let Some(pixels) = self.pixels.as_mut() else {
            return;
        };
        self.shell.draw(pixels.frame_mut());
        let filter = self.shell.display_filter();
        let (surface, params) = (self.surface, self.params);
        // pixels rebuilds lost or outdated surfaces itself; what is left is fatal.
        let started = Instant::now();
        let rendered = match &self.filters {
            Some(filters) => pixels.render_with(|encoder, target, context| {
                filters.render(encoder, target, &context.queue, surface, filter, &params);
                Ok(())
            }),
            None => pixels.render(),
        };
        let failed = rendered.err();
        if let Some(times) = &mut self.frame_times {
            // Count the GPU's work too, not only recording it.
            let _ = pixels
                .device()
                .poll(pixels::wgpu::PollType::wait_indefinitely());
            let micros = started.elapsed().as_secs_f32() * 1e6;
            let shown = match self.filters {
                Some(_) => filter.name(),
                None => "pixels' own renderer",
            };
            let what = format!("{shown} at {}x{}", surface.0, surface.1);
            if let Some(line) = times.add(micros, &what) {
                crate::out::eprint_line(&line);
            }
        }
        if let Some(e) = failed {
            return self.fail(event_loop, HostError::Graphics(e.to_string()));
        }
        let now = Instant::now();
        self.shell
            .presented(now, (now - started).as_secs_f32() * 1e6);
    }
}

impl ApplicationHandler for App {
    fn exiting(&mut self, _event_loop: &ActiveEventLoop) {
        self.shell.store_saves();
        self.shell.finish_gif();
    }

    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.window.is_some() {
            return;
        }
        let scale = self.options.scale.clamp(1, 16);
        let size = PhysicalSize::new(SCREEN_W as u32 * scale, SCREEN_H as u32 * scale);
        let attributes = Window::default_attributes()
            .with_title(self.shell.title())
            .with_inner_size(size)
            .with_min_inner_size(PhysicalSize::new(SCREEN_W as u32, SCREEN_H as u32));
        let window = match event_loop.create_window(attributes) {
            Ok(window) => Arc::new(window),
            Err(e) => return self.fail(event_loop, HostError::Window(e.to_string())),
        };
        let inner = window.inner_size();
        let surface = SurfaceTexture::new(inner.width.max(1), inner.height.max(1), window.clone());
        match Pixels::new(SCREEN_W as u32, SCREEN_H as u32, surface) {
            Ok(pixels) => {
                if self.frame_times.is_some() {
                    let info = pixels.adapter().get_info();
                    crate::out::eprint_line(&format!(
                        "frame time: drawing on {} ({:?}, {})",
                        info.name, info.backend, info.driver
                    ));
                }
                // KAIRO_PIXELS_RENDERER: pixels' own renderer, to compare frame times with.
                if std::env::var_os("KAIRO_PIXELS_RENDERER").is_none() {
                    self.filters = Some(FilterRenderer::new(&pixels));
                }
                self.pixels = Some(pixels);
            }
            Err(e) => return self.fail(event_loop, HostError::Graphics(e.to_string())),
        }
        self.surface = (inner.width.max(1), inner.height.max(1));
        if self.options.fullscreen {
            window.set_fullscreen(Some(Fullscreen::Borderless(None)));
        }
        self.window = Some(window);
        event_loop.listen_device_events(DeviceEvents::Always);
        self.pacer.resync(self.now_ns());
    }

    fn device_event(
        &mut self,
        _event_loop: &ActiveEventLoop,
        _device: DeviceId,
        event: DeviceEvent,
    ) {
        if let DeviceEvent::Key(raw) = event
            && !self.ever_focused
        {
            self.physical_key(raw.physical_key, raw.state, false);
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => {
                self.minimized = size.width == 0 || size.height == 0;
                if !self.minimized {
                    self.surface = (size.width, size.height);
                }
                if !self.minimized
                    && let Some(pixels) = self.pixels.as_mut()
                    && let Err(e) = pixels.resize_surface(size.width, size.height)
                {
                    crate::out::eprint_line(&format!("kairo: resize: {e}"));
                }
            }
            WindowEvent::ModifiersChanged(modifiers) => self.modifiers = modifiers.state(),
            WindowEvent::KeyboardInput { event, .. } => self.key(&event),
            WindowEvent::Focused(focused) => {
                self.ever_focused |= focused;
                if !focused {
                    self.shell.mapper.release_keys();
                }
            }
            WindowEvent::DroppedFile(path) => self.shell.open(&path),
            WindowEvent::RedrawRequested => self.redraw(event_loop),
            _ => {}
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        for event in self.pads.poll() {
            self.shell.pad_event(event);
        }
        let vblanks = self.pacer.advance(self.now_ns());
        for _ in 0..vblanks {
            self.shell.vblank(Instant::now());
            let samples = self.shell.take_audio();
            if let Some(sound) = self.sound.as_mut() {
                sound.push(&samples);
            }
        }
        if self.shell.quit_requested() {
            event_loop.exit();
            return;
        }
        if let Some(window) = &self.window {
            let title = self.shell.title();
            if title != self.title {
                window.set_title(&title);
                self.title = title;
            }
            if vblanks > 0 {
                window.request_redraw();
            }
        }
        let deadline = self.clock + Duration::from_nanos(self.pacer.next_deadline());
        event_loop.set_control_flow(ControlFlow::WaitUntil(deadline));
    }
}
