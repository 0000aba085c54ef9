//! The cart's Lua state built on an [`Arena`]: made with `lua_newstate` and Kairo's
//! allocator, handed to mlua, closed by us, and snapshotted and restored whole.
//!
//! A snapshot is the arena's bytes. Restoring them is sound only while what lives outside
//! the heap agrees with it, so the rules below keep it that way:
//! - **References held by Rust.** mlua keeps the Lua values Rust holds on the stack of an
//!   auxiliary thread (inside the heap) and its own list of which slots are free (outside).
//!   Between frames Rust holds only references made before the first snapshot, so the two
//!   agree if the slot pattern (which slots hold a value) is unchanged; a restore checks it
//!   and is refused otherwise. The auxiliary stack is grown ahead, so it does not move.
//! - **Rust data inside Lua objects.** mlua's callbacks and error objects are userdata that
//!   own Rust memory and free it in their `__gc`. A snapshot holding such an object while the
//!   live heap has already freed its memory would revive a dangling pointer. So no callback
//!   is made after the sandbox is built, and once it is, the finalizers of these two kinds
//!   of userdata are switched off (and back on when the state closes): nothing Rust owns is
//!   freed while snapshots may refer to it. API errors reach Lua as plain strings, so error
//!   objects are rare (a runaway stop, a host failure).

use std::ffi::c_int;
use std::mem::ManuallyDrop;

use mlua::{Function, Lua, StdLib, Value, ffi};

use super::arena::{Arena, lua_alloc};
use super::context::{LentSlots, Shared, shared_of};

/// Kinds of work Kairo's Lua counts (`LUA_WORK_*` in `lua/src/lua.h`): bytes of strings
/// made, copied or compared; bytes decoded one by one; values a library function handles;
/// slots a full collection marks; values the VM moves.
pub(crate) const WORK_KINDS: usize = 5;

/// The function Kairo's Lua calls to charge counted work (`lua_WorkF`).
pub(crate) type WorkFn = unsafe extern "C-unwind" fn(*mut ffi::lua_State);

unsafe extern "C-unwind" {
    /// Kairo's Lua (`lua/src/lapi.c`): turns on the work meter.
    fn lua_setwork(
        state: *mut ffi::lua_State,
        charge: Option<WorkFn>,
        costs: *const std::ffi::c_uint,
        every: u64,
    );
    /// Kairo's Lua: the whole cycles of work counted, taken off the count.
    pub(crate) fn lua_takework(state: *mut ffi::lua_State) -> u64;
    /// Kairo's Lua (`lua/src/ldigest.c`): a digest of every value the state can reach; 0
    /// when the walk ran out of memory.
    fn lua_statedigest(state: *mut ffi::lua_State, digest: *mut u64) -> std::ffi::c_int;
    /// Kairo's Lua: turns on the instruction meter, a count hook every `count`
    /// instructions that counts `cost` (1/1024 cycles) as work, and calls `charge` instead
    /// when the work counted is due.
    fn lua_setmeter(
        state: *mut ffi::lua_State,
        count: std::ffi::c_int,
        cost: u64,
        charge: Option<ffi::lua_Hook>,
    );
    /// Kairo's Lua: whether the instruction meter calls its `charge` hook at every count.
    fn lua_setsampling(state: *mut ffi::lua_State, on: std::ffi::c_int);
}
use crate::spec::LUA_MEMORY_LIMIT;

/// Address space reserved for a heap: room for fragmentation well past the memory limit.
/// A 32-bit address space (WebAssembly) has less to spare, and there the region is real
/// memory the page grows into, so it gets half as much headroom.
const RESERVED: usize = if cfg!(target_pointer_width = "64") {
    8 * LUA_MEMORY_LIMIT
} else {
    4 * LUA_MEMORY_LIMIT
};
/// Slots the auxiliary reference stack is grown to before the first snapshot.
const REF_SLOTS: usize = 1024;
/// Depth of nested Rust callbacks prepared for before the first snapshot (mlua keeps one
/// spare error object per level).
const CALLBACK_DEPTH: i64 = 24;
/// Registry key of the finalizers switched off by [`Heap::seal`].
const SEALED: &std::ffi::CStr = c"kairo.sealed_finalizers";

/// Why a snapshot could not be restored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RestoreError {
    #[error(
        "the snapshot was taken of another Lua state (the console was reset or reloaded since)"
    )]
    OtherState,
    #[error(
        "the Lua state's references changed since this snapshot (deep nesting of API callbacks, or an error object); snapshots taken before are no longer usable"
    )]
    References,
}

/// A whole Lua heap as it stood, with the reference slots Rust used then.
#[derive(Clone, Debug, Default)]
pub struct HeapSnapshot {
    /// The heap it was taken of ([`Heap::id`]).
    heap: u64,
    bytes: Vec<u8>,
    slots: Vec<bool>,
}

impl HeapSnapshot {
    /// Bytes held.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether the snapshot is empty (never taken).
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The heap's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// A Lua state whose whole heap is one arena.
pub struct Heap {
    /// Unique in the process: a snapshot is only restored into the heap it came from.
    id: u64,
    /// mlua's handle and the lent slots, boxed so that their address, kept in the state's
    /// extra space (see [`lua_of`]), stays put.
    shared: ManuallyDrop<Box<Shared>>,
    state: *mut ffi::lua_State,
    /// mlua's auxiliary thread holding the values Rust refers to.
    ref_thread: *mut ffi::lua_State,
    arena: ManuallyDrop<Arena>,
}

impl Heap {
    /// A fresh state with the base library and `libs`, its heap capped at the memory limit.
    pub fn new(libs: StdLib) -> mlua::Result<Heap> {
        let arena = Arena::new(RESERVED, LUA_MEMORY_LIMIT)
            .ok_or_else(|| mlua::Error::runtime("cannot reserve memory for the Lua heap"))?;
        // SAFETY: the arena outlives the state: `Drop` closes the state first.
        let state = unsafe { ffi::lua_newstate(lua_alloc, arena.as_user_data()) };
        if state.is_null() {
            return Err(mlua::Error::runtime("cannot create the Lua state"));
        }
        // SAFETY: a fresh state; `luaL_requiref` of the base library cannot fail but for
        // memory, which a fresh 32 MiB heap has.
        let lua = unsafe {
            ffi::luaL_requiref(state, c"_G".as_ptr(), ffi::luaopen_base, 1);
            ffi::lua_settop(state, 0);
            Lua::get_or_init_from_ptr(state).clone()
        };
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let shared = Box::new(Shared {
            lua,
            slots: LentSlots::default(),
        });
        // SAFETY: the main thread's extra space is ours (mlua does not use it) and threads
        // made later copy it; the box lives until `Drop` clears it.
        unsafe { *ffi::lua_getextraspace(state).cast::<*const Shared>() = &*shared };
        let mut heap = Heap {
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            shared: ManuallyDrop::new(shared),
            state,
            ref_thread: std::ptr::null_mut(),
            arena: ManuallyDrop::new(arena),
        };
        heap.shared.lua.load_std_libs(libs)?;
        heap.ref_thread = heap.find_ref_thread()?;
        Ok(heap)
    }

    /// The state, for mlua.
    pub fn lua(&self) -> &Lua {
        &self.shared.lua
    }

    /// Where the console lends the machine and the call context while Lua runs.
    pub fn slots(&self) -> &LentSlots {
        &self.shared.slots
    }

    /// The main thread's raw state (the global data every thread shares).
    pub(crate) fn raw_state(&self) -> *mut ffi::lua_State {
        self.state
    }

    /// A digest of every value the program can reach (globals, upvalues, coroutines...),
    /// the same on every platform for states holding the same values (`lua/README.md`);
    /// `None` when the walk could not get the memory it needs. Between calls only.
    pub fn digest(&self) -> Option<u64> {
        let mut digest = 0;
        // SAFETY: the state is alive and not running (between calls); the walk only reads.
        let whole = unsafe { lua_statedigest(self.state, &mut digest) };
        (whole != 0).then_some(digest)
    }

    /// Bytes Lua holds.
    pub fn used(&self) -> usize {
        self.arena.used()
    }

    /// Turns on Kairo's work meter (`lua/src/lua.h`): Lua's library and VM count the work
    /// no instruction pays for at `costs` (1/1024 cycles per unit of each kind), and call
    /// `charge` once `every` cycles are counted; `charge` takes them with
    /// [`Heap::take_work`] and may raise a Lua error.
    pub(crate) fn set_work_meter(&self, charge: WorkFn, costs: &[u32; WORK_KINDS], every: u64) {
        // SAFETY: sets fields of the state's global data; `costs` is read at once.
        unsafe {
            lua_setwork(
                self.state,
                Some(charge),
                costs.as_ptr(),
                every.saturating_mul(1024),
            )
        }
    }

    /// Turns on the instruction meter: every `every` instructions Kairo's Lua counts
    /// `cycles` of work in C, and only when the work counted is due does it call the count
    /// hook set on the state before (mlua's, which charges from Rust, with the running
    /// thread known, and samples for the profiler).
    pub(crate) fn set_instruction_meter(&self, every: u32, cycles: u64) {
        // SAFETY: reads the main thread's hook, then sets it and fields of the global data;
        // threads made later inherit the hook.
        unsafe {
            let charge = ffi::lua_gethook(self.state);
            lua_setmeter(
                self.state,
                every as std::ffi::c_int,
                cycles.saturating_mul(1024),
                charge,
            );
        }
    }

    /// While on, the instruction meter calls its charging hook at every count (the
    /// profiler's per-function attribution). Set for each call: a restored heap brings back
    /// the setting of its snapshot.
    pub(crate) fn set_sampling(&self, on: bool) {
        // SAFETY: sets a field of the state's global data.
        unsafe { lua_setsampling(self.state, std::ffi::c_int::from(on)) }
    }

    /// The whole cycles of work counted and not charged yet, taken off the count.
    pub fn take_work(&self) -> u64 {
        // SAFETY: reads and updates a counter in the state's global data.
        unsafe { lua_takework(self.state) }
    }

    /// Prepares the state for snapshots once the sandbox is built: grows the reference
    /// stack and mlua's spare error objects ahead, and switches off the finalizers of
    /// userdata that own Rust memory. No callback may be created after this.
    pub(crate) fn seal(&self) -> mlua::Result<()> {
        let lua = &self.shared.lua;
        let held: Vec<Value> = (0..REF_SLOTS)
            .map(|_| Value::Table(lua.globals()))
            .collect();
        drop(held);
        let nest = lua.create_function(|_, (f, depth): (Function, i64)| f.call::<()>(depth))?;
        let descend: Function = lua
            .load(
                "local nest = ... local function descend(n) if n > 0 then nest(descend, n - 1) end end return descend",
            )
            .set_name("=kairo")
            .call(nest.clone())?;
        descend.call::<()>(CALLBACK_DEPTH)?;
        // An error object, to reach its metatable.
        let fail = lua.create_function(|_, ()| Err::<(), _>(mlua::Error::runtime("seal")))?;
        let sealed = lua.create_table()?;
        // SAFETY: run protected by mlua; the stack is balanced by `exec_raw`.
        unsafe {
            lua.exec_raw::<()>((nest, fail, sealed.clone()), |state| {
                // 1: a callback, 2: a failing callback, 3: the table keeping old finalizers.
                ffi::lua_getupvalue(state, 1, 1);
                switch_off_finalizer(state, 3, 1);
                ffi::lua_pushvalue(state, 2);
                ffi::lua_pcall(state, 0, 0, 0);
                switch_off_finalizer(state, 3, 2);
                ffi::lua_settop(state, 0);
            })?;
        }
        lua.set_named_registry_value(&SEALED.to_string_lossy(), sealed)?;
        lua.gc_collect()?;
        lua.gc_collect()?;
        Ok(())
    }

    /// The heap as it stands.
    pub fn snapshot(&self) -> HeapSnapshot {
        let mut snapshot = HeapSnapshot::default();
        self.snapshot_into(&mut snapshot);
        snapshot
    }

    /// The heap as it stands, into `snapshot` (reusing its memory).
    pub fn snapshot_into(&self, snapshot: &mut HeapSnapshot) {
        snapshot.heap = self.id;
        self.arena.snapshot_into(&mut snapshot.bytes);
        self.slot_pattern(&mut snapshot.slots);
    }

    /// Puts back a heap taken from this state between calls.
    pub fn restore(&mut self, snapshot: &HeapSnapshot) -> Result<(), RestoreError> {
        if snapshot.heap != self.id {
            return Err(RestoreError::OtherState);
        }
        // Every slot Rust holds now must hold a value in the snapshot too (the same one:
        // between calls Rust holds only what it held before the first snapshot, and spare
        // error objects, which are all alike). A slot the snapshot fills and Rust counts as
        // free is only overwritten when reused.
        let mut now = Vec::new();
        self.slot_pattern(&mut now);
        let agrees = now.len() == snapshot.slots.len()
            && now
                .iter()
                .zip(&snapshot.slots)
                .all(|(&held, &then)| !held || then);
        if !agrees {
            return Err(RestoreError::References);
        }
        self.arena.restore(&snapshot.bytes);
        Ok(())
    }

    /// Which slots of the reference stack hold a value.
    fn slot_pattern(&self, slots: &mut Vec<bool>) {
        slots.clear();
        // SAFETY: reading types of the auxiliary thread's own stack slots.
        unsafe {
            let top = ffi::lua_gettop(self.ref_thread);
            slots.extend((1..=top).map(|i| ffi::lua_type(self.ref_thread, i) != ffi::LUA_TNIL));
        }
    }

    /// mlua's auxiliary thread: the one thread the registry holds besides the main one.
    fn find_ref_thread(&self) -> mlua::Result<*mut ffi::lua_State> {
        let main = self.state;
        let mut found = std::ptr::null_mut();
        // SAFETY: reads of the registry's array part, balanced.
        unsafe {
            let len = ffi::lua_rawlen(main, ffi::LUA_REGISTRYINDEX) as ffi::lua_Integer;
            for i in 1..=len + 8 {
                if ffi::lua_rawgeti(main, ffi::LUA_REGISTRYINDEX, i) == ffi::LUA_TTHREAD {
                    let thread = ffi::lua_tothread(main, -1);
                    if thread != main {
                        found = thread;
                    }
                }
                ffi::lua_pop(main, 1);
            }
        }
        if found.is_null() {
            return Err(mlua::Error::runtime(
                "mlua's reference thread was not found",
            ));
        }
        Ok(found)
    }
}

/// Moves the `__gc` of the metatable of the value on top of the stack into the table at
/// `keep` (under the key `n`), and pops the value.
unsafe fn switch_off_finalizer(state: *mut ffi::lua_State, keep: c_int, n: ffi::lua_Integer) {
    // SAFETY: the caller leaves a value on top and a table at `keep`.
    unsafe {
        if ffi::lua_getmetatable(state, -1) != 0 {
            ffi::lua_pushstring(state, c"__gc".as_ptr());
            ffi::lua_rawget(state, -2);
            if ffi::lua_type(state, -1) != ffi::LUA_TNIL {
                // keep[n] = { mt, gc }
                ffi::lua_createtable(state, 2, 0);
                ffi::lua_pushvalue(state, -3);
                ffi::lua_rawseti(state, -2, 1);
                ffi::lua_pushvalue(state, -2);
                ffi::lua_rawseti(state, -2, 2);
                ffi::lua_rawseti(state, keep, n);
                ffi::lua_pushstring(state, c"__gc".as_ptr());
                ffi::lua_pushnil(state);
                ffi::lua_rawset(state, -4);
            }
            ffi::lua_pop(state, 2);
        }
        ffi::lua_pop(state, 1);
    }
}

/// The `Lua` of a heap's state, from any of its threads: what the heap keeps in the extra
/// space of its main thread, which threads made from it copy. A registry lookup
/// (`Lua::get_or_init_from_ptr`) would cost more than an API call's own work.
///
/// # Safety
/// `state` is a thread of a state made by [`Heap::new`], which is still alive.
pub(crate) unsafe fn lua_of<'a>(state: *mut ffi::lua_State) -> &'a Lua {
    // SAFETY: as the caller says.
    match unsafe { shared_of(state) } {
        Some(shared) => &shared.lua,
        // SAFETY: as the caller says.
        None => unsafe { Lua::get_or_init_from_ptr(state) },
    }
}

impl Drop for Heap {
    fn drop(&mut self) {
        // SAFETY: the finalizers are put back so that closing frees what Rust owns; mlua's
        // handle goes before the state, the state before its arena.
        unsafe {
            let state = self.state;
            ffi::lua_settop(state, 0);
            ffi::lua_getfield(state, ffi::LUA_REGISTRYINDEX, SEALED.as_ptr());
            if ffi::lua_type(state, -1) == ffi::LUA_TTABLE {
                let mut n = 1;
                while ffi::lua_rawgeti(state, -1, n) == ffi::LUA_TTABLE {
                    ffi::lua_rawgeti(state, -1, 1);
                    ffi::lua_pushstring(state, c"__gc".as_ptr());
                    ffi::lua_rawgeti(state, -3, 2);
                    ffi::lua_rawset(state, -3);
                    ffi::lua_pop(state, 2);
                    n += 1;
                }
                ffi::lua_pop(state, 1);
            }
            ffi::lua_settop(state, 0);
            *ffi::lua_getextraspace(state).cast::<*const Shared>() = std::ptr::null();
            ManuallyDrop::drop(&mut self.shared);
            ffi::lua_close(state);
            ManuallyDrop::drop(&mut self.arena);
        }
    }
}
