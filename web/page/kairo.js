// Kairo's web host: runs cart.kcart on the WebAssembly machine (kairo_web.js/.wasm) and
// shows it in the page. Keyboard (the window's default keys), gamepads (standard mapping,
// players 1-4), sound (an AudioWorklet fed each vblank's samples), 60 Hz on the wall clock,
// pause while the tab is hidden, fullscreen (F11 or Alt+Enter, or double-click), save RAM in
// localStorage, and an error screen when the cart faults.
//
// index.html#hash=N runs the cart N vblanks with no input as fast as it can and logs
// `hash <16 hex digits>` to the console, like `kairo headless CART --frames N --hash`.
//
// The picture goes through a display filter (display.js, exported in front of this file):
// "Display: NAME" (top right) and F10 cycle them and keep the choice in localStorage;
// #filter=NAME chooses one for this visit, and #bench=N times N frames' drawing through it.
//
// "Play online" plays a room's match with other pages and native peers (`kairo netplay
// --room`): rooms.js (exported in front of this file) speaks to the lobby server and holds
// the WebRTC data channels, and the machine's netplay code in the runtime (`kairo_net_*`)
// reads and writes every message. A match runs its own machine, powered on with no save
// data; the page's own game waits meanwhile, and nothing is stored. The fragment
// #room=NAME&server=URL&player=N (also press=SCRIPT, hash=F, spectate=1, password=...,
// players=K, stun=URL|none, turn=URL, turn-user=NAME, turn-password=TEXT, relay=1) joins at
// once; with hash=F the page logs `hash <16 hex>` once frame F is confirmed, like
// `kairo headless --net-room ... --frames F --hash`.
'use strict';
(function () {
  const W = 256, H = 256;
  const VBLANK_MS = 1000 / 60;
  const CATCH_UP = 3;
  const SAMPLE_RATE = 48000;
  // The window's default keys (src/host/input_map.rs), by KeyboardEvent.code: button bit.
  const KEYS = {
    ArrowLeft: 0, ArrowRight: 1, ArrowUp: 2, ArrowDown: 3,
    KeyZ: 4, KeyX: 5, KeyA: 6, KeyS: 7,
    KeyQ: 8, KeyW: 9, KeyR: 9,
    Enter: 10, ShiftLeft: 11, ShiftRight: 11,
  };
  // Gamepad API standard mapping: button index: button bit (d-pad, A B X Y by position,
  // bumpers as L and R, Start, Select).
  const PAD_BUTTONS = { 14: 0, 15: 1, 12: 2, 13: 3, 0: 4, 1: 5, 2: 6, 3: 7, 4: 8, 5: 9, 9: 10, 8: 11 };
  const DEAD_ZONE = 0.5;

  // The picture's canvas (the display may put a new one in its place).
  let canvas = document.getElementById('screen');
  const note = document.getElementById('note');
  const faultPanel = document.getElementById('fault');
  // Where the chosen display filter is kept.
  const FILTER_KEY = 'kairo.filter';
  let display = null;

  let M = null, session = 0;
  let keyWord = 0;
  const heldKeys = new Set();
  let paused = false, faulted = false;
  let next = 0;
  let saveKey = null, saveChanges = 0;
  let audio = null;
  const frameMs = [];

  function text(what) {
    const ptr = M._kairo_text(session, what);
    const len = M._kairo_text_len(session);
    return new TextDecoder().decode(M.HEAPU8.slice(ptr, ptr + len));
  }

  function showNote(message) {
    note.textContent = message;
    note.hidden = !message;
  }

  function showFault(message) {
    faulted = true;
    faultPanel.textContent = 'The cart stopped.\n\n' + message;
    faultPanel.hidden = false;
    canvas.style.opacity = '0.35';
    console.error('kairo: ' + message);
  }

  // The picture's size for the filter: the largest whole multiple of 256 that fits
  // (letterboxed) for none and lcd, the whole of the page's shorter side for crt and smooth;
  // centred.
  function fit() {
    display.fit(innerWidth, innerHeight, window.devicePixelRatio || 1);
  }

  // The machine's picture, 256x256 RGBA, or null before the first.
  function framePixels() {
    const ptr = M._kairo_frame(session);
    return ptr ? M.HEAPU8.subarray(ptr, ptr + W * H * 4) : null;
  }

  function draw() {
    const pixels = framePixels();
    if (pixels) display.frame(pixels);
  }

  function flushLog() {
    const log = text(1);
    if (log) for (const line of log.replace(/\n$/, '').split('\n')) console.log(line);
  }

  function padWords() {
    const words = [keyWord, 0, 0, 0];
    const pads = navigator.getGamepads ? navigator.getGamepads() : [];
    for (const pad of pads) {
      if (!pad || pad.index > 3 || !pad.connected) continue;
      let word = 0;
      for (const [index, bit] of Object.entries(PAD_BUTTONS)) {
        const button = pad.buttons[index];
        if (button && (button.pressed || button.value > 0.5)) word |= 1 << bit;
      }
      const [x, y] = [pad.axes[0] || 0, pad.axes[1] || 0];
      if (x < -DEAD_ZONE) word |= 1; else if (x > DEAD_ZONE) word |= 2;
      if (y < -DEAD_ZONE) word |= 4; else if (y > DEAD_ZONE) word |= 8;
      words[pad.index] |= word;
    }
    return words;
  }

  let vblanks = 0, animationFrames = 0;

  function tick(words) {
    vblanks++;
    const start = performance.now();
    const step = M._kairo_tick(session, words[0], words[1], words[2], words[3]);
    if (step === 0) {
      frameMs.push(performance.now() - start);
      if (frameMs.length > 120) frameMs.shift();
    }
    flushLog();
    playAudio();
    if (step === 2 && !faulted) showFault(text(0));
    keepSave();
    return step;
  }

  // Hands the machine's last sound to the worklet.
  function playAudio() {
    if (!audio) return;
    const len = M._kairo_audio_len(session);
    if (!len) return;
    const ptr = M._kairo_audio(session) >> 2;
    const samples = M.HEAPF32.slice(ptr, ptr + len);
    audio.node.port.postMessage(samples, [samples.buffer]);
  }

  function keepSave() {
    // A match's machine has no save data of its own, and the page's waits meanwhile.
    if (!saveKey || online) return;
    const changes = M._kairo_save_changes(session);
    if (changes === saveChanges) return;
    saveChanges = changes;
    const ptr = M._kairo_save(session);
    const bytes = M.HEAPU8.subarray(ptr, ptr + M._kairo_save_len(session));
    try {
      localStorage.setItem(saveKey, btoa(String.fromCharCode.apply(null, bytes)));
    } catch (error) {
      console.warn('kairo: cannot keep save data: ' + error);
    }
  }

  function loadSave() {
    try {
      const stored = saveKey && localStorage.getItem(saveKey);
      if (!stored) return new Uint8Array(0);
      return Uint8Array.from(atob(stored), (c) => c.charCodeAt(0));
    } catch (error) {
      console.warn('kairo: cannot read save data: ' + error);
      return new Uint8Array(0);
    }
  }

  // Sound: a worklet that plays a queue of the machine's vblanks (48 kHz stereo), dropping
  // the oldest when more than about 100 ms waits, so latency stays low.
  const WORKLET = `
    class KairoSound extends AudioWorkletProcessor {
      constructor() {
        super();
        this.queue = []; this.at = 0; this.queued = 0;
        this.port.onmessage = (e) => {
          this.queue.push(e.data); this.queued += e.data.length;
          while (this.queued > 9600 && this.queue.length > 1) {
            this.queued -= this.queue.shift().length - this.at; this.at = 0;
          }
        };
      }
      process(inputs, outputs) {
        const [left, right] = outputs[0];
        for (let i = 0; i < left.length; i++) {
          const chunk = this.queue[0];
          if (!chunk) { left[i] = 0; if (right) right[i] = 0; continue; }
          left[i] = chunk[this.at];
          if (right) right[i] = chunk[this.at + 1];
          this.at += 2; this.queued -= 2;
          if (this.at >= chunk.length) { this.queue.shift(); this.at = 0; }
        }
        return true;
      }
    }
    registerProcessor('kairo-sound', KairoSound);`;

  // Called on every click and key: the first opens the sound, and any later one resumes it
  // if the browser held it back (a key that does not count as a user gesture, like Shift).
  function startAudio() {
    if (!window.AudioWorkletNode || paused) return;
    if (!startAudio.opening) {
      startAudio.opening = openAudio().catch((error) => {
        console.warn('kairo: no sound: ' + error);
      });
    } else if (audio && audio.context.state === 'suspended') {
      audio.context.resume().catch(() => {});
    }
  }

  async function openAudio() {
    const context = new AudioContext({ sampleRate: SAMPLE_RATE });
    context.onstatechange = () => {
      if (context.state === 'running' && note.textContent.startsWith('Click')) showNote('');
    };
    const url = URL.createObjectURL(new Blob([WORKLET], { type: 'text/javascript' }));
    await context.audioWorklet.addModule(url);
    const node = new AudioWorkletNode(context, 'kairo-sound', { outputChannelCount: [2] });
    node.connect(context.destination);
    audio = { context, node };
    if (!paused) context.resume().catch(() => {});
  }

  function toggleFullscreen() {
    if (document.fullscreenElement) document.exitFullscreen();
    else document.documentElement.requestFullscreen().catch(() => {});
  }

  function onKey(event, down) {
    // Keys typed into the online panel's fields are the fields'.
    const target = event.target;
    if (target && /^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(target.tagName)) return;
    if (down && (event.code === 'F11' || (event.code === 'Enter' && event.altKey))) {
      event.preventDefault();
      toggleFullscreen();
      return;
    }
    if (event.code === 'F10') {
      event.preventDefault();
      if (down && !event.repeat) nextFilter();
      return;
    }
    if (KEYS[event.code] === undefined) return;
    event.preventDefault();
    // Two keys may hold one button (W and R, both Shifts): a button is held while any is.
    if (down) heldKeys.add(event.code); else heldKeys.delete(event.code);
    keyWord = 0;
    for (const code of heldKeys) keyWord |= 1 << KEYS[code];
  }

  function frame(now) {
    requestAnimationFrame(frame);
    if (online) {
      if (online.drawn !== online.frames) {
        online.drawn = online.frames;
        draw();
      }
      return;
    }
    if (paused || faulted) return;
    try {
      runDue(now);
    } catch (error) {
      // The machine itself failed (out of memory, a bug): say so rather than freeze.
      showFault('the machine stopped: ' + (error && error.message ? error.message : error));
    }
  }

  function runDue(now) {
    animationFrames++;
    // Absolute deadlines at 60 Hz whatever the display's rate; after a stall of more than
    // a few vblanks, start again from now rather than racing to catch up.
    if (now - next > CATCH_UP * VBLANK_MS) next = now;
    let ran = false;
    while (next <= now && !faulted) {
      tick(padWords());
      next += VBLANK_MS;
      ran = true;
    }
    if (ran) draw();
  }

  function runForHash(frames) {
    const start = performance.now();
    let n = 0;
    (function chunk() {
      const end = Math.min(frames, n + 600);
      for (; n < end; n++) {
        if (tick([0, 0, 0, 0]) === 2) return;
      }
      if (n < frames) return setTimeout(chunk, 0);
      draw();
      const ms = performance.now() - start;
      console.log('web: ' + frames + ' vblanks in ' + ms.toFixed(1) + ' ms');
      console.log('hash ' + text(2));
    })();
  }

  // Times the display filter: runs the cart 60 vblanks with no input (a picture worth
  // drawing), then draws `draws` frames in batches of 10, each batch ended by a wait for the
  // GPU to finish (reading a pixel back), one vblank between batches; a first batch warms
  // up. Logs the renderer and `bench FILTER SIDExSIDE: ...` with the milliseconds a frame's
  // drawing took (its upload and the filter's pass): the median batch, and the range.
  function runForBench(draws) {
    const BATCH = 10;
    const perDraw = [];
    console.log('display: ' + display.renderer());
    for (let i = 0; i < 60; i++) if (tick([0, 0, 0, 0]) === 2) return;
    display.timedFrames(framePixels(), BATCH);
    (function batch() {
      if (tick([0, 0, 0, 0]) === 2) return;
      perDraw.push(display.timedFrames(framePixels(), BATCH));
      if (perDraw.length * BATCH < draws) return setTimeout(batch, 0);
      perDraw.sort((a, b) => a - b);
      console.log('bench ' + display.filter + ' ' + display.side + 'x' + display.side + ': ' +
        perDraw.length * BATCH + ' frames, ' + perDraw[perDraw.length >> 1].toFixed(2) +
        ' ms a frame (' + perDraw[0].toFixed(2) + ' to ' +
        perDraw[perDraw.length - 1].toFixed(2) + ')');
    })();
  }

  // ---- Display filters -------------------------------------------------------------------

  // The filters' parameters, written into the page by `kairo export`.
  function filterParams() {
    try {
      return JSON.parse(document.body.dataset.filterParams);
    } catch (error) {
      console.log('display: no filter parameters in the page (export it with kairo export)');
      return {};
    }
  }

  function savedFilter() {
    try {
      return localStorage.getItem(FILTER_KEY);
    } catch (error) {
      return null;
    }
  }

  function setFilter(name, keep) {
    display.filter = name;
    $('display-next').textContent = 'Display: ' + name;
    fit();
    if (!keep) return;
    try {
      localStorage.setItem(FILTER_KEY, name);
    } catch (error) {
      console.warn('kairo: cannot keep the display filter: ' + error);
    }
  }

  function nextFilter() {
    const offered = display.filters();
    setFilter(offered[(offered.indexOf(display.filter) + 1) % offered.length], true);
  }

  // The filter to start with: the fragment's filter=NAME, else the one kept, else none.
  function startFilter(settings) {
    const offered = display.filters();
    let chosen = savedFilter();
    if (!offered.includes(chosen)) chosen = 'none';
    if (settings.filter !== undefined) {
      const name = settings.filter.trim().toLowerCase();
      if (offered.includes(name)) {
        chosen = name;
      } else if (KairoDisplay.NAMES.includes(name)) {
        console.log('display: filter=' + name + ' needs WebGL: showing ' + chosen);
      } else {
        console.log('display: unknown filter "' + settings.filter + '" in the address ' +
          '(choose ' + KairoDisplay.NAMES.join(', ') + '): showing ' + chosen);
      }
    }
    setFilter(chosen, false);
  }

  function setUpDisplay() {
    const button = $('display-next');
    button.addEventListener('click', nextFilter);
    if (display.filters().length < 2) {
      button.disabled = true;
      button.title = 'Display filters need WebGL';
    }
    $('display-button').hidden = false;
  }

  // ---- Play online ----------------------------------------------------------------------

  const STANDARD_STUN = 'stun:stun.l.google.com:19302';
  // How long the room is kept after leaving a match, for the notice to reach the others.
  const LEAVING_MS = 500;
  // kairo_net_tick's answers.
  const NET_STATES = ['meeting', 'playing', 'watching', 'ended', 'off', 'paused', 'resuming'];
  // The match being played: its room, state, status line and hash contract.
  let online = null;
  const $ = (id) => document.getElementById(id);

  // The fragment's settings, by name. Values are percent-decoded; a `+` stays a `+` (press
  // scripts use it).
  function fragment() {
    const found = {};
    for (const part of location.hash.replace(/^#/, '').split('&')) {
      if (!part) continue;
      const at = part.indexOf('=');
      const name = at < 0 ? part : part.slice(0, at);
      let value = at < 0 ? '' : part.slice(at + 1);
      try { value = decodeURIComponent(value); } catch (error) { /* kept as it is */ }
      found[name] = value;
    }
    return found;
  }

  // The peer connections' settings (an RTCConfiguration). STUN: the fragment's stun=, else
  // what the export set, else the standard STUN. TURN: the fragment's turn=, turn-user=,
  // turn-password=, else what the export set, else none. relay=1 sends everything through
  // the TURN server, so the other players never learn this player's address. Null, with
  // the reason in `why`, when relay=1 has no TURN server to relay through.
  function rtcConfig(why) {
    const settings = fragment();
    const data = document.body.dataset;
    const pick = (name, exported) => (settings[name] !== undefined ? settings[name] : exported || '');
    const stun = pick('stun', data.stun) || STANDARD_STUN;
    const urls = stun.split(',').map((u) => u.trim()).filter((u) => u && u !== 'none');
    const iceServers = urls.length ? [{ urls }] : [];
    const turn = pick('turn', data.turn).trim();
    if (turn && turn !== 'none') {
      const server = { urls: [turn] };
      const user = pick('turn-user', data.turnUser);
      const password = pick('turn-password', data.turnPassword);
      if (user) server.username = user;
      if (password) server.credential = password;
      iceServers.push(server);
    }
    const relay = settings.relay === '1';
    if (relay && !iceServers.some((server) => /^turns?:/.test(server.urls[0]))) {
      why.text = 'relay=1 needs a TURN server (turn=turn:HOST:PORT) to relay through';
      return null;
    }
    return { iceServers, iceTransportPolicy: relay ? 'relay' : 'all' };
  }

  function lobbyServer(given) {
    return (given || $('online-server').value || document.body.dataset.lobby || '').trim();
  }

  function inviteLink(room, server, players) {
    let link = location.href.replace(/#.*$/, '') + '#room=' + encodeURIComponent(room) +
      '&server=' + encodeURIComponent(server).replace(/%3A/gi, ':').replace(/%2F/gi, '/');
    if (players !== 2) link += '&players=' + players;
    return link;
  }

  function bytesIn(string) {
    const bytes = new TextEncoder().encode(string);
    const ptr = M._kairo_alloc(Math.max(1, bytes.length));
    M.HEAPU8.set(bytes, ptr);
    return [ptr, bytes.length];
  }

  function freeBytes([ptr, len]) {
    M._kairo_free(ptr, Math.max(1, len));
  }

  // Logs how the member `id` is reached (`netplay: PEER reached directly` or `... through a
  // TURN relay`) once the browser knows the connection's candidate pair.
  function logRoute(here, id, tries = 0) {
    setTimeout(async () => {
      if (online !== here || here.ended) return;
      let route = null;
      try { route = await here.link.route(id); } catch (error) { /* not known */ }
      if (route) {
        console.log('netplay: ' + id.slice(0, 8) + ' reached ' +
          (route === 'relay' ? 'through a TURN relay' : 'directly'));
      } else if (tries < 10) {
        logRoute(here, id, tries + 1);
      }
    }, 500);
  }

  // Joins `room` on `server`: as `player` (1-4) of `players`, or to watch (player 0).
  // `press` (a press script) and `hash` (a frame) are for tests.
  function startOnline(options) {
    const { room, server, player, players, password, press, hash, trace } = options;
    if (online) leaveOnline();
    hideOnlinePanels();
    if (!server) return onlineFailed('NETPLAY ERROR', 'no lobby server: give its URL (ws://HOST:PORT)');
    if (!/^wss?:\/\/[^/]/.test(server)) {
      return onlineFailed('NETPLAY ERROR',
        'lobby server "' + server + '": give its URL as ws://HOST:PORT (wss:// behind TLS)');
    }
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(room)) {
      return onlineFailed('NETPLAY ERROR',
        'room "' + room + '": a room\'s name is 1 to 64 letters, digits, - and _');
    }
    const why = {};
    const config = rtcConfig(why);
    if (!config) return onlineFailed('NETPLAY ERROR', why.text);
    const roomBytes = bytesIn(room);
    const passwordBytes = bytesIn(password || '');
    const opened = M._kairo_net_open(session, roomBytes[0], roomBytes[1], passwordBytes[0],
      passwordBytes[1], players, player, 2);
    freeBytes(roomBytes);
    freeBytes(passwordBytes);
    if (opened !== 0) return onlineFailed(text(6), text(7));
    if (press) {
      const script = bytesIn(press);
      const pressed = M._kairo_net_press(session, script[0], script[1]);
      freeBytes(script);
      if (pressed !== 0) {
        M._kairo_net_close(session);
        return onlineFailed(text(6), text(7));
      }
    }
    if (hash !== undefined) M._kairo_net_hash_of_frame(session, hash);
    online = {
      room, server, player, players,
      state: 'meeting', status: '', frames: 0, drawn: -1,
      hash, hashLogged: false, ended: false, next: performance.now(), timer: 0,
      note: '', noteUntil: 0,
      link: null,
    };
    const here = online;
    here.link = new KairoRooms.Room(server.replace(/\/+$/, '') + '/' + room, config, {
      id: (id) => console.log('netplay: in room ' + room + ' as ' + id.slice(0, 8)),
      present: (id, present) => {
        if (online !== here) return;
        const words = KairoRooms.idWords(id);
        M._kairo_net_present(session, words[0], words[1], words[2], words[3], present ? 1 : 0);
        if (present) logRoute(here, id);
      },
      message: (id, bytes) => {
        if (online !== here) return;
        const words = KairoRooms.idWords(id);
        const ptr = M._kairo_alloc(Math.max(1, bytes.length));
        M.HEAPU8.set(bytes, ptr);
        M._kairo_net_received(session, words[0], words[1], words[2], words[3], ptr, bytes.length);
        M._kairo_free(ptr, Math.max(1, bytes.length));
      },
      trace: trace ? (line) => console.log('room: ' + line) : null,
      closed: (reason, joined) => {
        if (online !== here || here.ended) return;
        // Once in the room the peers met stay connected: the match goes on.
        if (joined) console.log('netplay: ' + reason);
        else endOnline('NETPLAY ERROR', reason);
      },
    });
    $('status').hidden = false;
    $('status-rematch').hidden = true;
    const invite = player === 1 ? inviteLink(room, server, players) : '';
    $('status-invite').hidden = !invite;
    $('status-link').textContent = invite;
    $('status-link').href = invite;
    showStatus('Room ' + room + ': joining the lobby at ' + server);
    showNote('');
    draw();
    // The match's clock: timers, not animation frames, so a hidden tab keeps answering its
    // peers (browsers slow hidden tabs' timers to about one a second, which a match survives
    // for a while); the picture is drawn on animation frames.
    here.timer = setInterval(() => onlineDue(here), 4);
  }

  // Runs the match's vblanks that are due (60 Hz, absolute deadlines as the page's own game).
  function onlineDue(here) {
    if (online !== here || here.ended) return;
    const now = performance.now();
    if (now - here.next > CATCH_UP * VBLANK_MS) here.next = now;
    while (here.next <= now && online === here && !here.ended) {
      onlineTick(here);
      here.next += VBLANK_MS;
    }
  }

  function onlineTick(here) {
    const state = M._kairo_net_tick(session, padWords()[0]);
    sendOutgoing(here);
    flushLog();
    playAudio();
    here.frames++;
    const notes = text(8);
    if (notes) {
      for (const line of notes.replace(/\n$/, '').split('\n')) console.log('netplay: ' + line);
      here.note = notes.replace(/\n$/, '').split('\n').pop();
      here.noteUntil = here.frames + 300;
    }
    if (here.hash !== undefined && !here.hashLogged) {
      const confirmed = text(4);
      if (confirmed) {
        here.hashLogged = true;
        console.log('hash ' + confirmed);
      }
    }
    if (state === 3) {
      endOnline(text(6), text(7));
      return;
    }
    here.state = NET_STATES[state] || 'off';
    $('status-rematch').hidden = !(here.state === 'playing' && here.player > 0);
    if (here.frames % 15 === 1) {
      const line = text(5);
      showStatus(here.note && here.frames < here.noteUntil ? line + ' · ' + here.note : line);
    }
  }

  // Hands the runtime's messages to the room: each is the peer's id (16 bytes), 1 for the
  // reliable channel or 0, the length (4 bytes, little-endian) and the bytes.
  function sendOutgoing(here) {
    const len = M._kairo_net_outgoing_len(session);
    if (!len) return;
    const ptr = M._kairo_net_outgoing(session);
    const packed = M.HEAPU8.slice(ptr, ptr + len);
    const view = new DataView(packed.buffer);
    let at = 0;
    while (at + 21 <= len) {
      const words = [0, 4, 8, 12].map((o) => view.getUint32(at + o, false));
      const reliable = packed[at + 16] === 1;
      const size = view.getUint32(at + 17, true);
      const bytes = packed.subarray(at + 21, at + 21 + size);
      at += 21 + size;
      here.link.send(KairoRooms.idFromWords(words), reliable, bytes);
    }
  }

  function showStatus(line) {
    if (!online) return;
    online.status = line;
    $('status-line').textContent = line;
  }

  // The match ended (an error, or a peer left): its last picture stays with the reason,
  // until Back.
  function endOnline(title, message) {
    if (!online || online.ended) return;
    online.ended = true;
    online.state = 'ended';
    clearInterval(online.timer);
    online.link.close();
    console.log('netplay: ' + title + ': ' + message);
    $('status').hidden = true;
    showOnlineError(title, message);
  }

  function onlineFailed(title, message) {
    console.log('netplay: ' + title + ': ' + message);
    showOnlineError(title, message);
  }

  function showOnlineError(title, message) {
    $('online-error-text').textContent = title + '\n\n' + message;
    $('online-error').hidden = false;
  }

  // Back to the page's own game, where it was.
  function leaveOnline() {
    if (online) {
      const here = online;
      clearInterval(here.timer);
      if (!here.ended) {
        // The others are told this player left for good (they end the match at once), and
        // the room is left once the notice is out.
        M._kairo_net_leave(session);
        sendOutgoing(here);
        setTimeout(() => here.link.close(), LEAVING_MS);
      }
      online = null;
      M._kairo_net_close(session);
    }
    $('status').hidden = true;
    $('online-error').hidden = true;
    $('online-button').hidden = false;
    next = performance.now();
    if (audio && !paused) audio.context.resume().catch(() => {});
    draw();
  }

  function hideOnlinePanels() {
    $('online').hidden = true;
    $('online-error').hidden = true;
    $('online-button').hidden = true;
  }

  function openOnlinePanel(settings) {
    $('online-error').hidden = true;
    $('online-button').hidden = true;
    $('online').hidden = false;
    if (settings.server) $('online-server').value = settings.server;
    if (settings.room) $('online-code').value = settings.room;
    if (settings.password) $('online-password').value = settings.password;
    $(settings.room ? 'online-join' : 'online-create').focus();
  }

  function setUpOnline(settings) {
    $('online-server').value = settings.server || document.body.dataset.lobby || '';
    $('online-open').addEventListener('click', () => openOnlinePanel({}));
    $('online-cancel').addEventListener('click', () => {
      $('online').hidden = true;
      $('online-button').hidden = false;
    });
    const players = settings.players ? Number(settings.players) : 2;
    $('online-create').addEventListener('click', () => {
      const count = Number($('online-players').value);
      startOnline({ room: KairoRooms.newRoomCode(), server: lobbyServer(), player: 1,
        players: count, password: $('online-password').value });
    });
    $('online-join').addEventListener('click', () => {
      startOnline({ room: $('online-code').value.trim().toUpperCase(), server: lobbyServer(),
        player: Number($('online-player').value), players: Math.max(players,
          Number($('online-player').value)), password: $('online-password').value });
    });
    $('online-watch').addEventListener('click', () => {
      startOnline({ room: $('online-code').value.trim().toUpperCase(), server: lobbyServer(),
        player: 0, players, password: $('online-password').value });
    });
    $('status-leave').addEventListener('click', leaveOnline);
    $('status-rematch').addEventListener('click', () => {
      if (online && !online.ended) M._kairo_net_rematch(session);
    });
    $('online-error-back').addEventListener('click', leaveOnline);
    $('status-copy').addEventListener('click', () => {
      const link = $('status-link').textContent;
      if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
      $('status-copy').textContent = 'Copied';
      setTimeout(() => { $('status-copy').textContent = 'Copy'; }, 1500);
    });
    $('online-button').hidden = false;
  }

  // The fragment's room: join at once with player= or spectate=1, else offer the panel.
  function onlineFromFragment(settings) {
    if (!settings.room) return;
    const players = settings.players ? Number(settings.players) : 2;
    const player = settings.spectate === '1' ? 0 : Number(settings.player || 0);
    if (settings.spectate !== '1' && !settings.player) {
      openOnlinePanel(settings);
      return;
    }
    startOnline({
      room: settings.room,
      server: lobbyServer(settings.server),
      player,
      players,
      password: settings.password,
      press: settings.press,
      hash: settings.hash !== undefined ? Number(settings.hash) : undefined,
      trace: settings.trace === '1',
    });
  }

  // What tests and curious players can ask the running page.
  window.kairo = {
    hash: () => text(2),
    input: () => padWords(),
    frameMs: () => frameMs.slice(),
    cycles: () => M._kairo_cycles(session),
    vblanks: () => vblanks,
    animationFrames: () => animationFrames,
    audio: () => (audio ? audio.context.state : 'off'),
    paused: () => paused,
    faulted: () => faulted,
    online: () => (online ? online.state : 'off'),
    status: () => (online ? online.status : ''),
    display: () => ({
      filter: display.filter, scale: display.scale, width: display.side,
      height: display.side, webgl: Boolean(display.gl), frames: display.frames,
    }),
  };

  async function main() {
    const settings = fragment();
    // Without a room, hash=N and bench=N run N vblanks with no input and stop.
    const whole = (value) => (/^\d+$/.test(value || '') ? Number(value) : null);
    const hashFrames = settings.room === undefined ? whole(settings.hash) : null;
    const benchFrames = settings.room === undefined ? whole(settings.bench) : null;
    const hashMatch = hashFrames !== null || benchFrames !== null;
    display = new KairoDisplay.Display(canvas, filterParams(), settings.webgl !== '0',
      (line) => console.log(line));
    canvas = display.canvas;
    startFilter(settings);
    addEventListener('resize', fit);
    M = await KairoRuntime();
    const response = await fetch('cart.kcart');
    if (!response.ok) throw new Error('cannot load cart.kcart: ' + response.status);
    const cart = new Uint8Array(await response.arrayBuffer());
    // Save RAM is kept under the cart's save_id (written into the page by `kairo export`),
    // as the window keeps it in a file under that name.
    const saveId = document.body.dataset.saveId;
    saveKey = !hashMatch && saveId ? 'kairo.save.' + saveId : null;
    const cartPtr = M._kairo_alloc(cart.length);
    M.HEAPU8.set(cart, cartPtr);
    const save = loadSave();
    const savePtr = M._kairo_alloc(Math.max(1, save.length));
    M.HEAPU8.set(save, savePtr);
    session = M._kairo_open(cartPtr, cart.length, savePtr, save.length);
    M._kairo_free(cartPtr, cart.length);
    M._kairo_free(savePtr, Math.max(1, save.length));
    const error = text(0);
    flushLog();
    if (error) {
      showNote('');
      showFault(error);
      return;
    }
    // Writes the main chunk and init() made count too: the first vblank stores them.
    saveChanges = 0;
    document.title = text(3) + ' - Kairo';
    draw();
    if (hashMatch) {
      showNote('');
      if (benchFrames !== null) runForBench(benchFrames);
      else runForHash(hashFrames);
      return;
    }
    showNote('Click or press a key for sound');
    addEventListener('keydown', (e) => { startAudio(); onKey(e, true); });
    addEventListener('keyup', (e) => onKey(e, false));
    addEventListener('pointerdown', startAudio);
    addEventListener('blur', () => { heldKeys.clear(); keyWord = 0; });
    canvas.addEventListener('dblclick', toggleFullscreen);
    document.addEventListener('visibilitychange', () => {
      paused = document.hidden;
      if (audio) (paused ? audio.context.suspend() : audio.context.resume()).catch(() => {});
      next = performance.now();
    });
    addEventListener('pagehide', keepSave);
    next = performance.now();
    requestAnimationFrame(frame);
    setUpDisplay();
    setUpOnline(settings);
    onlineFromFragment(settings);
  }

  main().catch((error) => {
    showNote('');
    showFault(String(error && error.message ? error.message : error));
  });
})();
