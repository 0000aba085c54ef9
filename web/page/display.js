// Kairo's web display: draws the machine's 256x256 RGBA frames on the page's canvas through
// a display filter, as a WebGL pass (src/views/display_filter.rs is the window's twin):
//
//   none    sharp integer scaling, letterboxed: every console pixel an exact square
//   crt     scanlines one console row apart, a soft horizontal beam, slight curvature and
//           vignette, colours kept
//   lcd     a dark grid between the console's pixels, at integer scale
//   smooth  sharp-bilinear: fills the page at any scale, each pixel crisp, only the edges
//           between pixels blended
//
// The frame is uploaded as a texture (sampled NEAREST, or LINEAR where a filter blends
// neighbouring pixels), and each filter is one fragment shader over the whole canvas, whose
// backing store is the picture's size in device pixels. Every filter's parameters come from
// the page (`data-filter-params`, written by `kairo export`
// from FilterParams::default()): the key `crt_beam` is the shader's uniform `u_crt_beam`.
// The machine's frames, hashes and the cart's pictures are never touched: only what the page
// shows is filtered. Without WebGL the canvas is a 2D one scaled by CSS (`none` only).
'use strict';
(function () {
  const W = 256, H = 256;
  // In the order the menu entry and F10 cycle them (DisplayFilter::ALL).
  const NAMES = ['none', 'crt', 'lcd', 'smooth'];
  // Filters drawn at the largest whole-number scale (DisplayFilter::integer_scale).
  const INTEGER_SCALE = { none: true, lcd: true, crt: false, smooth: false };
  // Filters whose shader samples the frame LINEAR (smooth_texel); the others read whole
  // console pixels, NEAREST.
  const LINEAR = { crt: true, smooth: true };

  const VERTEX = `
    attribute vec2 a_pos;
    void main() { gl_Position = vec4(a_pos, 0.0, 1.0); }`;

  // What every filter's shader starts with: the frame, the canvas's size in device pixels,
  // and where a device pixel's centre falls on the console's screen.
  const COMMON = `
    #ifdef GL_FRAGMENT_PRECISION_HIGH
    precision highp float;
    #else
    precision mediump float;
    #endif
    uniform sampler2D u_frame;
    uniform vec2 u_out;
    const float SIZE = 256.0;
    // Device pixels per console pixel.
    float scale() { return u_out.x / SIZE; }
    // The console pixel at whole coordinates t (clamped to the screen), x right, y down.
    vec3 texel(vec2 t) {
      t = clamp(t, 0.0, SIZE - 1.0);
      return texture2D(u_frame, (t + 0.5) / SIZE).rgb;
    }
    // The picture at q, in console pixels, blending the four pixels around it (the texture
    // is sampled LINEAR for the filters that use this).
    vec3 smooth_texel(vec2 q) {
      return texture2D(u_frame, q / SIZE).rgb;
    }
    // This device pixel's centre in console pixels (0..256), y down.
    vec2 console_pos() {
      return vec2(gl_FragCoord.x, u_out.y - gl_FragCoord.y) * (SIZE / u_out);
    }`;

  const SHADERS = {
    none: `
      void main() { gl_FragColor = vec4(texel(floor(console_pos())), 1.0); }`,

    // Sharp-bilinear: inside each console pixel the colour is the pixel's own; only the last
    // half device pixel on each side blends with the neighbour (one bilinear fetch).
    smooth: `
      void main() {
        vec2 p = console_pos();
        vec2 cell = floor(p);
        vec2 f = p - cell - 0.5;
        vec2 edge = vec2(max(0.5 - 0.5 / scale(), 0.0));
        gl_FragColor = vec4(smooth_texel(cell + 0.5 + (f - clamp(f, -edge, edge)) * scale()),
          1.0);
      }`,

    // A CRT: the picture bulges (u_crt_curvature); each console row is a beam, soft sideways
    // (neighbouring pixels blend over u_crt_beam console pixels); between two rows the
    // picture darkens (u_crt_scanline at the darkest, averaged over the device pixel so
    // that fractional scales show no moire) and the rows meet in that dark gap, so curved
    // rows have no steps; the corners darken (u_crt_vignette) and everything is brightened by
    // u_crt_brightness. Outside the bulged picture is black, its border anti-aliased. One
    // bilinear fetch per device pixel.
    crt: `
      uniform float u_crt_scanline;
      uniform float u_crt_beam;
      uniform float u_crt_curvature;
      uniform float u_crt_vignette;
      uniform float u_crt_brightness;
      // How wide, in console pixels, the blend between two rows is.
      const float MEET = 0.5;
      const float PI = 3.14159265;
      void main() {
        vec2 c = console_pos() / SIZE * 2.0 - 1.0;
        c *= 1.0 + u_crt_curvature * c.yx * c.yx;
        vec2 p = (c + 1.0) * 0.5 * SIZE;
        vec2 cell = floor(p);
        vec2 f = p - cell - 0.5;
        vec2 edge = 0.5 - 0.5 * vec2(clamp(u_crt_beam, 0.01, 1.0), MEET);
        vec2 q = cell + 0.5 + (f - clamp(f, -edge, edge)) * 0.5 / (0.5 - edge);
        vec3 colour = smooth_texel(q) * u_crt_brightness;
        // Darkness 1 between rows, 0 in their middle: a cosine, averaged over the device
        // pixel's height w (its average is the cosine times sin(pi w) / (pi w)).
        float w = PI / scale();
        float dark = 0.5 + 0.5 * cos(2.0 * PI * p.y) * sin(w) / w;
        float scan = 1.0 - u_crt_scanline * dark;
        float r = dot(c, c) * 0.5;
        float vignette = 1.0 - u_crt_vignette * r * r;
        float inside = min(min(p.x, SIZE - p.x), min(p.y, SIZE - p.y));
        float border = clamp(inside * scale() + 0.5, 0.0, 1.0);
        gl_FragColor = vec4(colour * (scan * vignette * border), 1.0);
      }`,

    // A handheld's LCD: the last u_lcd_line of each console pixel, right and bottom, is a
    // grid line darkened by u_lcd_grid, weighted by how much of the device pixel it covers.
    lcd: `
      uniform float u_lcd_grid;
      uniform float u_lcd_line;
      void main() {
        vec2 p = console_pos();
        vec2 f = fract(p);
        float half_px = 0.5 / scale();
        vec2 lo = max(f - half_px, vec2(1.0 - u_lcd_line));
        vec2 hi = min(f + half_px, vec2(1.0));
        vec2 cover = clamp((hi - lo) * scale(), 0.0, 1.0);
        float line = 1.0 - (1.0 - cover.x) * (1.0 - cover.y);
        gl_FragColor = vec4(texel(floor(p)) * (1.0 - u_lcd_grid * line), 1.0);
      }`,
  };

  // The WebGL pass: a texture for the frame and a program per filter (all compiled at once).
  // Throws when WebGL is missing or refuses a shader, and the page then draws in 2D.
  function glPass(canvas, params) {
    const options = { alpha: false, antialias: false, depth: false, stencil: false,
      premultipliedAlpha: false, preserveDrawingBuffer: false };
    const gl = canvas.getContext('webgl2', options) || canvas.getContext('webgl', options);
    if (!gl) throw new Error('the browser gives no WebGL context');
    const texture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, texture);
    for (const [name, value] of [[gl.TEXTURE_MIN_FILTER, gl.NEAREST],
      [gl.TEXTURE_MAG_FILTER, gl.NEAREST], [gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE],
      [gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE]]) {
      gl.texParameteri(gl.TEXTURE_2D, name, value);
    }
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, W, H, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
    const quad = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, quad);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]),
      gl.STATIC_DRAW);
    const programs = {};
    let sampled = gl.NEAREST;

    function compile(kind, source) {
      const shader = gl.createShader(kind);
      gl.shaderSource(shader, source);
      gl.compileShader(shader);
      if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS) && !gl.isContextLost()) {
        throw new Error('shader: ' + gl.getShaderInfoLog(shader));
      }
      return shader;
    }

    function program(filter) {
      if (programs[filter]) return programs[filter];
      const made = gl.createProgram();
      gl.attachShader(made, compile(gl.VERTEX_SHADER, VERTEX));
      gl.attachShader(made, compile(gl.FRAGMENT_SHADER, COMMON + SHADERS[filter]));
      gl.bindAttribLocation(made, 0, 'a_pos');
      gl.linkProgram(made);
      if (!gl.getProgramParameter(made, gl.LINK_STATUS) && !gl.isContextLost()) {
        throw new Error('shader program: ' + gl.getProgramInfoLog(made));
      }
      gl.useProgram(made);
      gl.uniform1i(gl.getUniformLocation(made, 'u_frame'), 0);
      for (const [key, value] of Object.entries(params)) {
        const at = gl.getUniformLocation(made, 'u_' + key);
        if (at) gl.uniform1f(at, Number(value));
      }
      programs[filter] = { made, out: gl.getUniformLocation(made, 'u_out') };
      return programs[filter];
    }

    for (const name of NAMES) program(name);
    return {
      upload(pixels) {
        gl.bindTexture(gl.TEXTURE_2D, texture);
        gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, W, H, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
      },
      draw(filter) {
        const { made, out } = program(filter);
        gl.useProgram(made);
        gl.viewport(0, 0, canvas.width, canvas.height);
        gl.uniform2f(out, canvas.width, canvas.height);
        gl.activeTexture(gl.TEXTURE0);
        gl.bindTexture(gl.TEXTURE_2D, texture);
        const sampling = LINEAR[filter] ? gl.LINEAR : gl.NEAREST;
        if (sampling !== sampled) {
          sampled = sampling;
          gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, sampling);
          gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, sampling);
        }
        gl.bindBuffer(gl.ARRAY_BUFFER, quad);
        gl.enableVertexAttribArray(0);
        gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
        gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
      },
      // Waits for the GPU to finish (reading one pixel back), for timings.
      sync() {
        gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
      },
      renderer() {
        const info = gl.getExtension('WEBGL_debug_renderer_info');
        const name = info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : 'unknown';
        return (gl instanceof WebGLRenderingContext ? 'WebGL 1' : 'WebGL 2') + ', ' + name;
      },
    };
  }

  // The picture on `canvas`, shown through a filter. `params`: the filters' parameters;
  // `useGl`: false to draw with the 2D canvas only; `log`: where the one line about a missing
  // WebGL goes. `this.canvas` is the canvas drawn on: a new one when WebGL failed on it.
  function Display(canvas, params, useGl, log) {
    this.canvas = canvas;
    this.filter = 'none';
    this.scale = 1;
    // The picture's width and height on the page, in device pixels (CSS pixels in 2D).
    this.side = W;
    this.frames = 0;
    this.gl = null;
    if (useGl) {
      try {
        this.gl = glPass(canvas, params);
      } catch (error) {
        log('display: no WebGL (' + (error && error.message ? error.message : error) +
          '): the picture is drawn sharp, without filters');
        // A canvas that gave a WebGL context gives no 2D one: a fresh canvas takes its place.
        const fresh = canvas.cloneNode(false);
        canvas.replaceWith(fresh);
        this.canvas = canvas = fresh;
      }
    } else {
      log('display: WebGL off (#webgl=0): the picture is drawn sharp, without filters');
    }
    if (this.gl) {
      canvas.classList.add('gl');
      // A lost context (the GPU reset) comes back empty: the pass is made again, and the
      // next frame fills it.
      canvas.addEventListener('webglcontextlost', (event) => event.preventDefault());
      canvas.addEventListener('webglcontextrestored', () => {
        try {
          this.gl = glPass(canvas, params);
          this.present();
        } catch (error) {
          log('display: WebGL came back broken (' + error + '): reload the page');
        }
      });
    } else {
      this.context2d = canvas.getContext('2d');
      this.image = this.context2d.createImageData(W, H);
    }
  }

  Display.prototype = {
    // The filters this display can draw.
    filters() {
      return this.gl ? NAMES.slice() : ['none'];
    },

    // Sizes the canvas for the filter in a `width` x `height` CSS-pixel area shown at `dpr`
    // device pixels per CSS pixel, and draws the last frame again.
    fit(width, height, dpr) {
      const integer = INTEGER_SCALE[this.filter] || !this.gl;
      const room = Math.min(width, height) * (this.gl ? dpr : 1);
      let side;
      if (integer) {
        this.scale = Math.max(1, Math.floor(room / W + 1e-6));
        side = W * this.scale;
      } else {
        side = Math.max(1, Math.floor(room + 1e-6));
        this.scale = side / W;
      }
      this.side = side;
      // Centred on whole device pixels, so that nothing resamples the picture.
      const ratio = this.gl ? dpr : 1;
      const style = this.canvas.style;
      style.width = style.height = side / ratio + 'px';
      style.left = Math.max(0, Math.floor((width * ratio - side) / 2)) / ratio + 'px';
      style.top = Math.max(0, Math.floor((height * ratio - side) / 2)) / ratio + 'px';
      if (this.gl && (this.canvas.width !== side || this.canvas.height !== side)) {
        this.canvas.width = side;
        this.canvas.height = side;
      }
      this.present();
    },

    // Shows `pixels` (256x256 RGBA).
    frame(pixels) {
      this.frames++;
      if (this.gl) {
        this.gl.upload(pixels);
      } else {
        this.image.data.set(pixels);
      }
      this.present();
    },

    // Draws the last frame again (after a resize or a change of filter).
    present() {
      if (!this.frames) return;
      if (this.gl) this.gl.draw(this.filter);
      else this.context2d.putImageData(this.image, 0, 0);
    },

    // Shows `pixels` `count` times and waits until the last is drawn: the milliseconds a
    // frame took, on average (the wait's fixed cost shared by the frames).
    timedFrames(pixels, count) {
      const start = performance.now();
      for (let i = 0; i < count; i++) this.frame(pixels);
      if (this.gl) this.gl.sync();
      else this.context2d.getImageData(0, 0, 1, 1);
      return (performance.now() - start) / count;
    },

    renderer() {
      return this.gl ? this.gl.renderer() : '2D canvas';
    },
  };

  window.KairoDisplay = { NAMES, Display };
})();
