//! The machine specification: every size, limit and cycle cost of the Kairo console, in one
//! place. `docs/hardware.md` documents these numbers and a test keeps the two in step.
//!
//! Adding a cost: add the constant here, charge it where the work happens (to the unit that
//! caused it), and add a row to the cost table in `docs/hardware.md`.

/// Screen width in pixels.
pub const SCREEN_W: usize = 256;
/// Screen height in pixels.
pub const SCREEN_H: usize = 256;
/// Pixels in one frame.
pub const SCREEN_PIXELS: usize = SCREEN_W * SCREEN_H;
/// Vertical blanks per second.
pub const FRAME_RATE: u32 = 60;

/// Colours in one palette; index 0 of every palette is transparent for tiles and sprites.
pub const PALETTE_COLORS: usize = 16;
/// Palettes in palette RAM.
pub const PALETTES: usize = 16;
/// Entries in palette RAM. Entry 0 (palette 0, colour 0) is the backdrop colour.
pub const PALETTE_ENTRIES: usize = PALETTES * PALETTE_COLORS;

/// Width and height of one pattern tile, in pixels.
pub const TILE_SIZE: usize = 8;
/// Bits per pixel of pattern data.
pub const TILE_BPP: usize = 4;
/// Bytes one tile occupies in pattern VRAM.
pub const TILE_BYTES: usize = TILE_SIZE * TILE_SIZE * TILE_BPP / 8;
/// Tiles in pattern VRAM.
pub const PATTERN_TILES: usize = 2048;
/// Size of pattern VRAM in bytes (64 KiB).
pub const PATTERN_VRAM_BYTES: usize = PATTERN_TILES * TILE_BYTES;
/// Pattern VRAM is addressed as a sheet this many tiles wide (128 px): tile `t` sits at
/// column `t % 16`, row `t / 16`, and a sprite of size n uses the n x n block from `t`.
pub const PATTERN_SHEET_TILES_W: usize = 16;
/// Height of the pattern sheet in tiles.
pub const PATTERN_SHEET_TILES_H: usize = PATTERN_TILES / PATTERN_SHEET_TILES_W;

/// Background layers.
pub const BG_LAYERS: usize = 4;
/// Largest cell map of a background layer, in cells per side.
pub const BG_MAX_CELLS: usize = 256;
/// Cell sizes a background layer may use, in pixels.
pub const BG_CELL_SIZES: [usize; 3] = [8, 16, 32];
/// Entries of the tile animation table (animated pattern tiles of the background layers).
pub const TILE_ANIMS: usize = 64;
/// Most frames one tile animation may have.
pub const TILE_ANIM_FRAMES: usize = 16;
/// Priority levels shared by layers, sprites and the bullet layer (0 = back, 3 = front).
pub const PRIORITY_LEVELS: usize = 4;

/// Sprite entries in object attribute memory.
pub const OAM_ENTRIES: usize = 256;
/// Sprite sizes, in tiles per side.
pub const SPRITE_SIZES: [usize; 4] = [1, 2, 4, 8];
/// Most tiles across or down of one sprite (`sprite` takes any w x h up to this).
pub const SPRITE_MAX_TILES: usize = 8;
/// Largest width or height of a `blit`'s target, in pixels.
pub const BLIT_MAX_SIDE: usize = 1024;

/// Cell sizes the collision layer may use, in pixels (those of the BG layers' maps).
pub const COLLISION_CELL_SIZES: [i32; 3] = [8, 16, 32];
/// Cell size of the collision layer at power-on and after `col_size`, in pixels.
pub const COLLISION_CELL: i32 = 16;
/// Most cells across or down of the collision layer (as of a BG layer's map).
pub const COLLISION_MAX_CELLS: usize = BG_MAX_CELLS;
const _: () = assert!(
    COLLISION_CELL_SIZES[0] == BG_CELL_SIZES[0] as i32
        && COLLISION_CELL_SIZES[1] == BG_CELL_SIZES[1] as i32
        && COLLISION_CELL_SIZES[2] == BG_CELL_SIZES[2] as i32
);
/// Largest speed of a body on either axis, in pixels per frame; faster requests are clamped.
pub const BODY_MAX_SPEED: i32 = 2048;
/// Farthest a body's position may lie from (0, 0) on either axis, in pixels; positions beyond
/// are clamped (twice the largest layer: 256 cells of 32 px).
pub const BODY_MAX_COORD: i32 = 16384;
/// Largest width or height of a body (or a moving platform), in pixels; the smallest is 1.
pub const BODY_MAX_SIZE: i32 = 4096;
// A body's far edge after a move and a flip (the layer's height, the largest body, a
// top-speed move and a cell) stays inside 16.16.
const _: () = assert!(
    BODY_MAX_COORD
        + COLLISION_MAX_CELLS as i32 * COLLISION_CELL_SIZES[2]
        + BODY_MAX_SIZE
        + BODY_MAX_SPEED
        + 32
        < 32768
);
/// Largest ground-mode snap margin (`col_margin`), in pixels.
pub const COLLISION_MARGIN_MAX: i32 = 16;
/// Hitboxes one frame can register.
pub const HITBOX_CAPACITY: usize = 1024;
/// Moving platforms one frame can register.
pub const PLATFORM_CAPACITY: usize = 64;

/// Bullets the bullet table holds (a hardware limit carts can read).
pub const BULLET_CAPACITY: usize = 4096;
/// Player shots alive at once.
pub const SHOT_CAPACITY: usize = 256;
/// Enemy boxes shots are tested against, per frame.
pub const TARGET_CAPACITY: usize = 256;
/// Bullet types.
pub const BULLET_TYPES: usize = 64;
/// Largest hit box side of a bullet type and of the player, in pixels.
pub const BULLET_HIT_MAX: i32 = 64;
/// Largest graze box side of the player, in pixels.
pub const GRAZE_MAX: i32 = 128;
/// Largest off-screen margin past which bullets are culled (`bu_layer`), in pixels.
pub const BULLET_CULL_MARGIN_MAX: i32 = 1024;
/// Fastest player shot, in pixels per frame.
pub const SHOT_MAX_SPEED: i32 = 256;
/// BulletML sources (enemies running a pattern) at once.
pub const BULLETML_SOURCES: usize = 64;
/// BulletML work all scripts together may do in one frame, in commands (a script's turn and
/// every 16 terms of a long expression count as one more): no more than a runaway script's
/// worth of cycles. Past it, scripts pause until the next frame (their turn cursors let them
/// catch up).
pub const BULLETML_COMMANDS_PER_FRAME: u64 = RUNAWAY_CAP / cost::BULLETML_STEP;

/// Audio channels.
pub const AUDIO_CHANNELS: usize = 8;
/// Audio output samples per second (per channel of the stereo pair).
pub const SAMPLE_RATE: u32 = 48_000;
/// Stereo sample frames per vblank (48000 / 60).
pub const FRAMES_PER_VBLANK: usize = SAMPLE_RATE as usize / FRAME_RATE as usize;
/// Samples per vblank, left and right interleaved.
pub const SAMPLES_PER_VBLANK: usize = 2 * FRAMES_PER_VBLANK;

/// Glyph cell of the system font, in pixels (glyphs advance by this much).
pub const FONT_SIZE: usize = 8;
/// Characters of the system font: ASCII 32..=126.
pub const FONT_FIRST_CHAR: u8 = 32;
/// Last character of the system font.
pub const FONT_LAST_CHAR: u8 = 126;

/// Players whose input the machine latches.
pub const PLAYERS: usize = 4;
/// `btnp` auto-repeat at power-on (PICO-8's): a held button reads as pressed again this many
/// machine frames after it went down...
pub const BTNP_REPEAT_DELAY: u8 = 15;
/// ... and then every this many machine frames while it stays held.
pub const BTNP_REPEAT_PERIOD: u8 = 4;

/// Bytes of battery-backed save RAM per cart (kept between runs under the cart's `save_id`).
pub const SAVE_BYTES: usize = 4096;
/// Number slots at the start of save RAM (`sd_get`/`sd_set`), 8 bytes each.
pub const SAVE_SLOTS: usize = 64;
/// Bytes of save RAM after the number slots, for one plain Lua value (`sd_write`/`sd_read`).
pub const SAVE_VALUE_BYTES: usize = SAVE_BYTES - SAVE_SLOTS * 8;

/// Most bytes one `log` line keeps (the rest is cut, with `...`).
pub const LOG_LINE_BYTES: usize = 512;
/// Most lines `log` keeps in one frame (past it, lines are counted, and reported as one).
pub const LOG_FRAME_LINES: usize = 256;
/// Most bytes `log` keeps in one frame.
pub const LOG_FRAME_BYTES: usize = 64 * 1024;

/// Cycles every frame may use before it spills into the next vblank (a virtual 6 MHz CPU).
pub const FRAME_BUDGET: u64 = 100_000;
/// Cycles one frame may use before the script is stopped as a runaway (10 frames of budget).
pub const RUNAWAY_CAP: u64 = 10 * FRAME_BUDGET;
/// Cycles `init()` (and the cart's main chunk) may use before it is stopped as a runaway.
pub const INIT_CAP: u64 = 100 * FRAME_BUDGET;
/// Bytes the cart's Lua state may allocate.
pub const LUA_MEMORY_LIMIT: usize = 32 * 1024 * 1024;
/// The Lua count hook fires every this many VM instructions; the script unit is charged this
/// many cycles each time. The remainder carries over to the next call, so over a run every
/// instruction is charged exactly once.
pub const LUA_HOOK_INTERVAL: u32 = 32;
/// Bytes of a string made, copied or compared that [`cost::STRING_BYTES`] is charged for.
pub const WORK_STRING_BYTES: u64 = 64;
/// Bytes decoded, transformed or parsed that [`cost::SCAN_BYTES`] is charged for.
pub const WORK_SCAN_BYTES: u64 = 8;
/// Values a library function handles that [`cost::LIBRARY_ITEMS`] is charged for.
pub const WORK_LIBRARY_ITEMS: u64 = 2;
/// Values the VM moves that [`cost::STACK_MOVES`] is charged for.
pub const WORK_STACK_MOVES: u64 = 4;
/// Slots a full collection marks that [`cost::GC_MARK`] is charged for.
pub const WORK_GC_MARK: u64 = 2;
/// Bytes and values of one operation of Lua's library or VM that its instruction pays for
/// (`LUA_WORK_FREE_BYTES`, `LUA_WORK_FREE_ITEMS` in `lua/src/lua.h`).
pub const WORK_FREE_BYTES: u64 = 64;
pub const WORK_FREE_ITEMS: u64 = 16;
/// A float written as text (`tostring`, `..`, `string.format`'s `%e`, `%f`, `%g`, `%a`):
/// the units of [`cost::SCAN_BYTES`] work (bytes' worth) of the conversion itself and of
/// each digit it writes; each significant digit it works out also costs one per 32-bit word
/// of the number's exact value (`FLOATWORK_CALL`, `FLOATWORK_DIGIT` and `luaO_floatwork` in
/// `lua/src/lobject.c`).
pub const WORK_FLOAT_TEXT_CALL: u64 = 128;
pub const WORK_FLOAT_TEXT_DIGIT: u64 = 8;
/// Cycles of instructions and library work Kairo's Lua counts before it charges them (and the
/// cap is checked): a runaway is stopped at most this much (plus one hook interval) past it.
pub const WORK_CHARGE_EVERY: u64 = 1024;

/// Cycle costs. Each is charged to the unit that caused the work.
pub mod cost {
    /// One Lua VM instruction (script).
    pub const LUA_INSTRUCTION: u64 = 1;
    /// Entering a cart API function, on top of the instructions of the call itself (script).
    pub const API_CALL: u64 = 20;
    /// An API call that raises an error, on top of the call: making its message and
    /// unwinding (script).
    pub const API_ERROR: u64 = 48;
    /// One cell written by an API call or a map load (video).
    pub const CELL_WRITE: u64 = 1;
    /// One pattern pixel written from Lua (video).
    pub const PIXEL_WRITE: u64 = 1;
    /// One enabled background layer, per frame (video).
    pub const LAYER: u64 = 2_000;
    /// One enabled layer with a per-line scroll table, per frame, extra (video).
    pub const LINE_SCROLL: u64 = 512;
    /// One visible sprite, per frame (video).
    pub const SPRITE: u64 = 16;
    /// Every 8 sprite pixels drawn (one tile row), per frame (video).
    pub const SPRITE_ROW: u64 = 1;
    /// Every 8 pixels (a started run of 8 on one row) a drawing covers inside the clip;
    /// lines and triangle outlines by their length (video).
    pub const DRAW_SPAN: u64 = 1;
    /// One glyph printed (video).
    pub const GLYPH: u64 = 4;
    /// One `blit`, or one `sprite` on a cart with a canvas, when called (video); its pixels
    /// cost `DRAW_SPAN` per started 8 of a row inside the clip.
    pub const BLIT: u64 = 16;
    /// One `pget` (video).
    pub const PGET: u64 = 4;
    /// Showing a PICO-8 cart's 128 x 128 screen on its canvas at 2x, each frame its `_draw`
    /// runs (video): 4 per 8 screen pixels.
    pub const PICO8_SCREEN: u64 = 4 * 128 * 128 / 8;
    /// A PICO-8 cart's `cls` (video): the whole 128 x 128 screen, per 8 pixels.
    pub const PICO8_CLS: u64 = 128 * 128 / 8;
    /// Compositing the canvas of a cart that has one, per frame (video).
    pub const CANVAS: u64 = 2_000;
    /// One `move_body` call (collision).
    pub const MOVE_BODY: u64 = 112;
    /// Each step of at most one cell a fast move is split into, beyond the first (collision).
    pub const MOVE_STEP: u64 = 12;
    /// Each collision cell read (collision).
    pub const TILE_PROBE: u64 = 1;
    /// Registering one moving platform (collision).
    pub const PLATFORM: u64 = 16;
    /// Each platform a `move_body` call tests (collision).
    pub const PLATFORM_TEST: u64 = 1;
    /// Registering one hitbox (collision).
    pub const HITBOX: u64 = 8;
    /// One `hb_query`, before the boxes it tests (collision).
    pub const HITBOX_QUERY: u64 = 4;
    /// Each candidate pair of hitboxes tested, and each box a query tests (collision).
    pub const HITBOX_TEST: u64 = 1;
    /// Spawning one bullet (bullets).
    pub const BULLET_SPAWN: u64 = 160;
    /// One live bullet or player shot, per frame: moving, culling, drawing (bullets).
    pub const BULLET_LIVE: u64 = 12;
    /// One hit test: a bullet against the player, or a shot against an enemy box (bullets).
    pub const HIT_TEST: u64 = 1;
    /// One BulletML command run (bullets).
    pub const BULLETML_STEP: u64 = 8;
    /// One voice sounding, per vblank mixed (audio).
    pub const AUDIO_VOICE: u64 = 40;
    /// One channel of the PICO-8 sound chip sounding, per vblank mixed (audio).
    pub const PICO8_SOUND_CHANNEL: u64 = 40;
    /// One MML command run (audio).
    pub const AUDIO_COMMAND: u64 = 2;
    /// Each line written with `log`: converting and escaping its values (script).
    pub const LOG_LINE: u64 = 32;
    /// Every 8 bytes of a line written with `log` (script).
    pub const LOG_BYTES: u64 = 1;
    /// One frame written to the tile animation table (video).
    pub const ANIM_FRAME: u64 = 1;
    /// Every [`super::WORK_STRING_BYTES`] bytes of a string Lua's library or VM makes,
    /// copies or compares, past [`super::WORK_FREE_BYTES`] in one operation (script).
    pub const STRING_BYTES: u64 = 1;
    /// Every [`super::WORK_SCAN_BYTES`] bytes Lua's library decodes, transforms or parses
    /// one by one (UTF-8, `upper`, a numeral, a format), past [`super::WORK_FREE_BYTES`] in
    /// one operation, and a float written as text by its digits
    /// ([`super::WORK_FLOAT_TEXT_CALL`]) (script).
    pub const SCAN_BYTES: u64 = 1;
    /// Every [`super::WORK_LIBRARY_ITEMS`] values a library function gets, sets, compares
    /// or formats (`table.move`, `insert`, `concat`, `sort`...), past
    /// [`super::WORK_FREE_ITEMS`] in one operation (script).
    pub const LIBRARY_ITEMS: u64 = 1;
    /// Every [`super::WORK_STACK_MOVES`] values the VM moves on the stack (results,
    /// varargs, a constructor's values, a coroutine's transfers and new stack), past
    /// [`super::WORK_FREE_ITEMS`] in one operation (script).
    pub const STACK_MOVES: u64 = 1;
    /// Every [`super::WORK_GC_MARK`] slots a full collection (`collectgarbage()`) marks
    /// (script).
    pub const GC_MARK: u64 = 1;
    /// One step of the pattern matcher behind `string.find`, `match`, `gmatch` and `gsub`:
    /// one pattern item tried at one position, or 16 bytes compared, scanned or copied
    /// (script).
    pub const PATTERN_STEP: u64 = 1;
    /// Each call of the pattern matcher (`string.find`, `match`, `gsub`, a `gmatch` step),
    /// on top of its steps (script).
    pub const PATTERN_CALL: u64 = 40;
    /// Each byte of a module's source `require` compiles (script).
    pub const COMPILE_BYTE: u64 = 2;
    /// One map object turned into a Lua table by `map_objects` (script).
    pub const MAP_OBJECT: u64 = 256;
    /// One read or write of a save RAM number slot (system).
    pub const SAVE_SLOT: u64 = 20;
    /// Every 8 bytes of a plain value encoded into or decoded from save RAM (system).
    pub const SAVE_BYTES: u64 = 8;
    /// Turning the indexed picture into colours at the end of a frame (system).
    pub const FRAME_OUT: u64 = 1_000;
}

const _: () = assert!(SCREEN_W == 256 && SCREEN_H == 256);
const _: () = assert!(PATTERN_VRAM_BYTES == 64 * 1024);
const _: () = assert!(PALETTE_ENTRIES == 256);
const _: () = assert!(PATTERN_TILES.is_multiple_of(PATTERN_SHEET_TILES_W));
const _: () = assert!(PATTERN_TILES <= 1 << 11, "cells store an 11-bit tile index");
const _: () = assert!(PALETTES <= 1 << 4, "cells store a 4-bit palette");
const _: () = assert!(
    BG_MAX_CELLS * 32 <= 1 << 13,
    "layer sizes fit in 13 bits of pixels"
);
const _: () = assert!(OAM_ENTRIES == 256);
const _: () = assert!(RUNAWAY_CAP > FRAME_BUDGET && INIT_CAP >= RUNAWAY_CAP);
const _: () = assert!(LUA_HOOK_INTERVAL > 0);
