//! What `tests/web.rs` drives a browser with: a static file server on a local port and
//! headless Chromium spoken to through the DevTools protocol over a pipe
//! (`--remote-debugging-pipe`: JSON messages ended by a NUL byte on descriptors 3 and 4).

use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

pub mod picture;

/// Serves the files under a folder at `http://127.0.0.1:<port>/` until the test ends.
pub struct Server {
    port: u16,
}

impl Server {
    pub fn start(root: &Path) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().unwrap().port();
        let root = root.to_path_buf();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let root = root.clone();
                std::thread::spawn(move || serve(stream, &root));
            }
        });
        Server { port }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

fn serve(stream: TcpStream, root: &Path) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    loop {
        let mut header = String::new();
        match reader.read_line(&mut header) {
            Ok(n) if n > 2 => {}
            _ => break,
        }
    }
    let path = request.split_whitespace().nth(1).unwrap_or("/");
    let path = path.split(['?', '#']).next().unwrap_or("/");
    let rel = path.trim_start_matches('/');
    let file = if rel.split('/').any(|part| part == "..") {
        None
    } else {
        std::fs::read(root.join(rel)).ok()
    };
    let mut stream = stream;
    let _ = match file {
        Some(bytes) => {
            let kind = match Path::new(rel).extension().and_then(|e| e.to_str()) {
                Some("html") => "text/html; charset=utf-8",
                Some("js") => "text/javascript",
                Some("wasm") => "application/wasm",
                _ => "application/octet-stream",
            };
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                bytes.len()
            );
            stream
                .write_all(head.as_bytes())
                .and_then(|()| stream.write_all(&bytes))
        }
        None => stream
            .write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
    };
}

/// Headless Chromium with one page, attached through the DevTools protocol.
pub struct Browser {
    child: Child,
    commands: File,
    messages: Receiver<Value>,
    next_id: u64,
    session: String,
    /// Console lines not yet waited for.
    console: VecDeque<String>,
    /// Exceptions and console errors seen.
    errors: Vec<String>,
}

impl Browser {
    pub fn launch(chromium: &str, profile: &Path) -> Browser {
        Browser::launch_with(chromium, profile, &[])
    }

    /// [`Browser::launch`] with more command-line switches for chromium.
    pub fn launch_with(chromium: &str, profile: &Path, switches: &[&str]) -> Browser {
        let (to_browser_read, to_browser_write) = pipe();
        let (from_browser_read, from_browser_write) = pipe();
        let (in_fd, out_fd) = (raw(&to_browser_read), raw(&from_browser_write));
        let mut command = Command::new(chromium);
        command
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--remote-debugging-pipe",
                "--no-first-run",
                "--mute-audio",
                "--window-size=800,600",
            ])
            .args(switches)
            .arg(format!(
                "--user-data-dir={}",
                PathBuf::from(profile).display()
            ))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            // Its own process group, so that dropping the browser stops its helper
            // processes too (they write into the profile folder).
            .process_group(0);
        // SAFETY: only async-signal-safe calls (fcntl, dup2) between fork and exec. Both
        // ends are first copied above 3 and 4: when one of them already is fd 3 or 4, moving
        // the other there first would close it (chromium then exits and the first command
        // meets a broken pipe).
        unsafe {
            command.pre_exec(move || {
                let high_in = libc::fcntl(in_fd, libc::F_DUPFD, 10);
                let high_out = libc::fcntl(out_fd, libc::F_DUPFD, 10);
                if high_in < 0
                    || high_out < 0
                    || libc::dup2(high_in, 3) < 0
                    || libc::dup2(high_out, 4) < 0
                {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().expect("start chromium");
        drop(to_browser_read);
        drop(from_browser_write);
        let (send, messages) = channel();
        let mut reader = BufReader::new(File::from(from_browser_read));
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            while reader.read_until(0, &mut buf).is_ok_and(|n| n > 0) {
                buf.pop();
                if let Ok(value) = serde_json::from_slice(&buf)
                    && send.send(value).is_err()
                {
                    break;
                }
                buf.clear();
            }
        });
        let mut browser = Browser {
            child,
            commands: File::from(to_browser_write),
            messages,
            next_id: 0,
            session: String::new(),
            console: VecDeque::new(),
            errors: Vec::new(),
        };
        let target = browser.call("Target.createTarget", json!({"url": "about:blank"}));
        let target = target["targetId"].as_str().expect("targetId").to_string();
        let attached = browser.call(
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
        );
        browser.session = attached["sessionId"].as_str().expect("sessionId").into();
        browser.call("Runtime.enable", json!({}));
        browser.call("Page.enable", json!({}));
        browser
    }

    /// Sends a command (to the page once attached) and waits for its answer.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if !self.session.is_empty() {
            message["sessionId"] = json!(self.session);
        }
        let mut bytes = serde_json::to_vec(&message).unwrap();
        bytes.push(0);
        self.commands.write_all(&bytes).expect("write to chromium");
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let message = self
                .receive(deadline)
                .unwrap_or_else(|| panic!("no answer from chromium to {method}"));
            if message["id"].as_u64() == Some(id) {
                if let Some(error) = message.get("error") {
                    panic!("{method} failed: {error}");
                }
                return message["result"].clone();
            }
            self.note(&message);
        }
    }

    fn receive(&mut self, deadline: Instant) -> Option<Value> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.messages.recv_timeout(left) {
            Ok(message) => Some(message),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => panic!("chromium went away"),
        }
    }

    /// Keeps console lines and errors from an event.
    fn note(&mut self, message: &Value) {
        let params = &message["params"];
        match message["method"].as_str() {
            Some("Runtime.consoleAPICalled") => {
                let line: Vec<String> = params["args"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|a| match &a["value"] {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    })
                    .collect();
                let line = line.join(" ");
                if params["type"] == "error" {
                    self.errors.push(line.clone());
                }
                self.console.push_back(line);
            }
            Some("Runtime.exceptionThrown") => {
                self.errors.push(params["exceptionDetails"].to_string());
            }
            _ => {}
        }
    }

    pub fn open(&mut self, url: &str) {
        self.console.clear();
        self.call("Page.navigate", json!({"url": url}));
    }

    /// Runs `source` in every page opened from now on, before the page's own scripts.
    pub fn before_each_page(&mut self, source: &str) {
        self.call(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({"source": source}),
        );
    }

    pub fn reload(&mut self) {
        self.console.clear();
        self.call("Page.reload", json!({}));
    }

    /// Takes the exceptions and console errors seen so far.
    pub fn take_errors(&mut self) -> Vec<String> {
        while let Ok(message) = self.messages.try_recv() {
            self.note(&message);
        }
        std::mem::take(&mut self.errors)
    }

    /// The first console line (since the last match) for which `wanted` holds.
    pub fn wait_console(&mut self, timeout: Duration, wanted: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            while let Some(line) = self.console.pop_front() {
                if wanted(&line) {
                    return line;
                }
            }
            match self.receive(deadline) {
                Some(message) => self.note(&message),
                None => panic!(
                    "timed out waiting for a console line; errors: {:?}",
                    self.errors
                ),
            }
        }
    }

    /// Evaluates `expression` in the page; its value as a string.
    pub fn eval(&mut self, expression: &str) -> String {
        let result = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true}),
        );
        if let Some(details) = result.get("exceptionDetails") {
            panic!("{expression} threw: {details}");
        }
        match &result["result"]["value"] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        }
    }

    /// Waits until `expression` is true in the page.
    pub fn wait_for(&mut self, expression: &str, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        while self.eval(&format!("Boolean({expression})")) != "true" {
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {expression}; errors: {:?}",
                self.errors
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Makes the page's viewport `width` x `height` CSS pixels, one device pixel each (the
    /// page gets a `resize` event).
    pub fn viewport(&mut self, width: u32, height: u32) {
        self.viewport_scaled(width, height, 1);
    }

    /// [`Browser::viewport`] with `scale` device pixels per CSS pixel (a HiDPI screen).
    pub fn viewport_scaled(&mut self, width: u32, height: u32, scale: u32) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": scale,
                   "mobile": false}),
        );
    }

    /// Presses (`down`) or releases a key, as a user would.
    pub fn key(&mut self, code: &str, key: &str, key_code: u32, down: bool) {
        let kind = if down { "rawKeyDown" } else { "keyUp" };
        self.call(
            "Input.dispatchKeyEvent",
            json!({"type": kind, "code": code, "key": key,
                   "windowsVirtualKeyCode": key_code, "nativeVirtualKeyCode": key_code}),
        );
    }

    /// Saves a screenshot of the page to `path` and returns its PNG bytes.
    pub fn screenshot(&mut self, path: &Path) -> Vec<u8> {
        let shot = self.call("Page.captureScreenshot", json!({"format": "png"}));
        let data = shot["data"].as_str().expect("screenshot data");
        use base64::Engine;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(data)
            .expect("base64");
        std::fs::write(path, &bytes).unwrap();
        bytes
    }

    /// Fails on any exception or console error seen so far.
    pub fn assert_no_errors(&mut self) {
        while let Ok(message) = self.messages.try_recv() {
            self.note(&message);
        }
        assert!(
            self.errors.is_empty(),
            "the page reported: {:?}",
            self.errors
        );
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // SAFETY: sends a signal to the process group chromium leads (`process_group(0)`).
        unsafe {
            libc::kill(-(self.child.id() as libc::pid_t), libc::SIGKILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn pipe() -> (OwnedFd, OwnedFd) {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors.
    let result = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    assert_eq!(result, 0, "pipe");
    // SAFETY: both descriptors were just made and are owned here.
    unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) }
}

fn raw(fd: &OwnedFd) -> i32 {
    use std::os::fd::AsRawFd;
    fd.as_raw_fd()
}
