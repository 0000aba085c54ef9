// Kairo's web host: runs cart.kcart on the WebAssembly machine (kairo_web.js/.wasm) and
// shows it in the page. Keyboard (the window's default keys), gamepads (standard mapping,
// players 1-4), sound (an AudioWorklet fed each vblank's samples), 60 Hz on the wall clock,
// pause while the tab is hidden, fullscreen (F11 or Alt+Enter, or double-click), save RAM in
// localStorage, and an error screen when the cart faults.
//
// index.html#hash=N runs the cart N vblanks with no input as fast as it can and logs
// `hash <16 hex digits>` to the console, like `kairo headless CART --frames N --hash`.
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

  const canvas = document.getElementById('screen');
  const note = document.getElementById('note');
  const faultPanel = document.getElementById('fault');
  const context2d = canvas.getContext('2d');
  const image = context2d.createImageData(W, H);

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

  // Integer scale, letterboxed: the largest whole multiple of 256 that fits.
  function fit() {
    const scale = Math.max(1, Math.floor(Math.min(innerWidth, innerHeight) / W));
    canvas.style.width = W * scale + 'px';
    canvas.style.height = H * scale + 'px';
  }

  function draw() {
    const ptr = M._kairo_frame(session);
    if (!ptr) return;
    image.data.set(M.HEAPU8.subarray(ptr, ptr + W * H * 4));
    context2d.putImageData(image, 0, 0);
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
    if (audio) {
      const ptr = M._kairo_audio(session) >> 2;
      const samples = M.HEAPF32.slice(ptr, ptr + M._kairo_audio_len(session));
      audio.node.port.postMessage(samples, [samples.buffer]);
    }
    if (step === 2 && !faulted) showFault(text(0));
    keepSave();
    return step;
  }

  function keepSave() {
    if (!saveKey) return;
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
    if (down && (event.code === 'F11' || (event.code === 'Enter' && event.altKey))) {
      event.preventDefault();
      toggleFullscreen();
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
  };

  async function main() {
    fit();
    addEventListener('resize', fit);
    const hashMatch = /^#hash=(\d+)$/.exec(location.hash);
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
      runForHash(Number(hashMatch[1]));
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
  }

  main().catch((error) => {
    showNote('');
    showFault(String(error && error.message ? error.message : error));
  });
})();
