//! The Lua heap: one region of memory that holds everything the cart's Lua state allocates,
//! with a small deterministic allocator whose bookkeeping lives inside the region too.
//!
//! Two things follow from owning the whole heap:
//! - **Snapshots.** The state of the heap is the bytes of the region up to its high-water
//!   mark, so a snapshot is one copy and a restore one copy back (valid only inside the
//!   process that made it: the heap holds addresses of C functions and of itself).
//! - **The same layout on every run.** The allocator places blocks by the order of
//!   requests alone, and on 64-bit Unix the region starts on a 4 GiB boundary where the
//!   address space allows it, so the low 32 bits of every Lua object's address are the same
//!   in every run (a heap dump of one run lines up with another's). Under a limited address
//!   space (`ulimit -v`) the region goes where the system puts it. Nothing the machine does
//!   rests on this: Kairo's Lua hashes tables and functions by creation number, not address
//!   (`lua/README.md`), and no address reaches a cart.
//!
//! Blocks come in size classes (16-byte steps to 1 KiB, then four per power of two); a freed
//! block goes on its class's free list and is handed out again first. Lua passes a block's
//! size when it frees or resizes it, so blocks carry no header. The region is reserved, not
//! committed: pages cost memory only once touched.

use std::ffi::c_void;
use std::ptr::{self, NonNull};

/// Classes of 16-byte steps: 16, 32, ... 1024 bytes.
const SMALL_CLASSES: usize = 64;
/// The largest small class.
const SMALL_LIMIT: usize = SMALL_CLASSES * 16;
/// Four classes for each power of two from 1 KiB up to 2 GiB.
const CLASSES: usize = SMALL_CLASSES + 4 * 21;

/// The allocator's bookkeeping, at the start of the region (so snapshots include it).
#[repr(C)]
struct Header {
    /// Offset of the first byte never handed out (the high-water mark).
    top: usize,
    /// Bytes Lua holds, as Lua counts them.
    used: usize,
    /// Bytes Lua may hold.
    limit: usize,
    /// Offset of each class's first free block (0: none); a free block's first word holds
    /// the offset of the next.
    free: [usize; CLASSES],
}

/// Where blocks start: the header rounded up to 64 bytes.
const FIRST_BLOCK: usize = std::mem::size_of::<Header>().div_ceil(64) * 64;

/// One Lua heap.
pub(crate) struct Arena {
    base: NonNull<u8>,
    /// Bytes of address space the region spans.
    reserved: usize,
}

// The arena is only touched by the Lua state it serves (and the snapshots taken of it), all
// on the thread that owns the console.
unsafe impl Send for Arena {}

impl Arena {
    /// Reserves a region of `reserved` bytes for a heap that may hold `limit` bytes.
    /// `None` when the system refuses the reservation.
    pub fn new(reserved: usize, limit: usize) -> Option<Arena> {
        let reserved = reserved.max(FIRST_BLOCK + 4096).next_multiple_of(4096);
        let base = region::reserve(reserved)?;
        let arena = Arena { base, reserved };
        // SAFETY: the region is at least FIRST_BLOCK bytes, writable and suitably aligned.
        unsafe {
            arena.header().write(Header {
                top: FIRST_BLOCK,
                used: 0,
                limit,
                free: [0; CLASSES],
            });
        }
        Some(arena)
    }

    fn header(&self) -> *mut Header {
        self.base.as_ptr().cast()
    }

    /// Bytes Lua holds.
    pub fn used(&self) -> usize {
        // SAFETY: the header was written in `new`.
        unsafe { (*self.header()).used }
    }

    /// Bytes a snapshot copies: the region up to its high-water mark.
    pub fn extent(&self) -> usize {
        // SAFETY: as in `used`.
        unsafe { (*self.header()).top }
    }

    /// The user data to hand `lua_newstate` with [`lua_alloc`].
    pub(crate) fn as_user_data(&self) -> *mut c_void {
        self.base.as_ptr().cast()
    }

    /// A copy of the heap as it stands.
    #[cfg(test)]
    pub fn snapshot(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(self.extent());
        self.snapshot_into(&mut bytes);
        bytes
    }

    /// Copies the heap into `bytes` (reusing its allocation).
    pub fn snapshot_into(&self, bytes: &mut Vec<u8>) {
        bytes.clear();
        // SAFETY: [base, base + extent) lies inside the region and has been written.
        let heap = unsafe { std::slice::from_raw_parts(self.base.as_ptr(), self.extent()) };
        bytes.extend_from_slice(heap);
    }

    /// Puts back a heap taken by [`Arena::snapshot`] of this arena. The caller must make
    /// sure no Lua code is running and that whatever outside the heap points into it (the
    /// `lua_State` pointer, references held by Rust) is valid for the restored heap.
    pub fn restore(&mut self, bytes: &[u8]) {
        assert!(
            bytes.len() >= FIRST_BLOCK && bytes.len() <= self.reserved,
            "a heap snapshot of {} bytes does not fit this arena",
            bytes.len()
        );
        // SAFETY: the destination lies inside the region, which the snapshot came from.
        unsafe { ptr::copy_nonoverlapping(bytes.as_ptr(), self.base.as_ptr(), bytes.len()) };
    }

    /// Allocates, resizes or frees a block, as Lua's `lua_Alloc` contract says.
    ///
    /// # Safety
    /// `block` must be null or a block of `old` bytes handed out by this arena.
    unsafe fn realloc(&mut self, block: *mut u8, old: usize, new: usize) -> *mut u8 {
        // SAFETY: the header was written in `new`; the caller vouches for `block`.
        unsafe {
            let header = &mut *self.header();
            let old = if block.is_null() { 0 } else { old };
            if new == 0 {
                if !block.is_null() {
                    self.free(block, old);
                    header.used -= old;
                }
                return ptr::null_mut();
            }
            if new > old && header.used + (new - old) > header.limit {
                return ptr::null_mut();
            }
            if !block.is_null() && class_of(old) == class_of(new) {
                header.used = header.used + new - old;
                return block;
            }
            let Some(fresh) = self.alloc(new) else {
                // Lua may not see a shrink fail: the block keeps its place (and is filed
                // under its new, smaller class when freed, which only wastes its tail).
                if new < old {
                    header.used -= old - new;
                    return block;
                }
                return ptr::null_mut();
            };
            if !block.is_null() {
                ptr::copy_nonoverlapping(block, fresh, old.min(new));
                self.free(block, old);
            }
            header.used = header.used + new - old;
            fresh
        }
    }

    /// A block for `size` bytes from its class's free list, or from the untouched part.
    unsafe fn alloc(&mut self, size: usize) -> Option<*mut u8> {
        let class = class_of(size);
        // SAFETY: offsets on the free lists and below `top` lie inside the region.
        unsafe {
            let header = &mut *self.header();
            let head = header.free[class];
            if head != 0 {
                let block = self.base.as_ptr().add(head);
                header.free[class] = block.cast::<usize>().read();
                return Some(block);
            }
            let size = class_size(class);
            let end = header.top.checked_add(size)?;
            if end > self.reserved {
                return None;
            }
            let block = self.base.as_ptr().add(header.top);
            header.top = end;
            Some(block)
        }
    }

    /// Files a block of `size` bytes on its class's free list.
    unsafe fn free(&mut self, block: *mut u8, size: usize) {
        // SAFETY: `block` is a block of this arena, at least 16 bytes and 16-aligned.
        unsafe {
            let header = &mut *self.header();
            let class = class_of(size);
            block.cast::<usize>().write(header.free[class]);
            header.free[class] = block.offset_from(self.base.as_ptr()) as usize;
        }
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        region::release(self.base, self.reserved);
    }
}

/// The `lua_Alloc` function for a state made with an arena's [`Arena::as_user_data`].
///
/// # Safety
/// Called by Lua only, with the user data it was given.
pub unsafe extern "C" fn lua_alloc(
    ud: *mut c_void,
    block: *mut c_void,
    old: usize,
    new: usize,
) -> *mut c_void {
    // A temporary view of the arena: its fields are the base (the user data) and a
    // reservation the header's `top` never passes, so a fake reservation of `usize::MAX`
    // would be wrong; the arena keeps its reservation in the header instead.
    let Some(base) = NonNull::new(ud.cast::<u8>()) else {
        return ptr::null_mut();
    };
    // SAFETY: `ud` is the base of a live arena; see `RESERVED_AT`.
    unsafe {
        let reserved = base.as_ptr().sub(RESERVED_AT).cast::<usize>().read();
        let mut arena = std::mem::ManuallyDrop::new(Arena { base, reserved });
        arena.realloc(block.cast(), old, new).cast()
    }
}

/// How far before the region's base its reservation size is stored (a guard word that
/// `region` writes in the page before the base).
const RESERVED_AT: usize = std::mem::size_of::<usize>();

/// The class a block of `size` bytes (at least 1) belongs to.
fn class_of(size: usize) -> usize {
    let size = size.max(1);
    if size <= SMALL_LIMIT {
        return (size - 1) / 16;
    }
    // size in (2^p, 2^(p+1)]: four classes of 2^(p-2) bytes each.
    let p = (usize::BITS - 1 - (size - 1).leading_zeros()) as usize;
    let step = 1usize << (p - 2);
    let quarter = (size - 1) / step - 4; // 0..=3
    (SMALL_CLASSES + (p - 10) * 4 + quarter).min(CLASSES - 1)
}

/// The block size of a class.
fn class_size(class: usize) -> usize {
    if class < SMALL_CLASSES {
        return (class + 1) * 16;
    }
    let p = (class - SMALL_CLASSES) / 4 + 10;
    let quarter = (class - SMALL_CLASSES) % 4;
    (4 + quarter + 1) << (p - 2)
}

/// Reserving and releasing the region: on 64-bit Unix a reservation of address space whose
/// pages are committed on first touch, 4 GiB-aligned unless the address space is limited;
/// elsewhere an ordinary aligned allocation. Either way the reservation size is stored in
/// the word before the base.
mod region {
    use std::ptr::NonNull;

    #[cfg(all(unix, target_pointer_width = "64"))]
    const ALIGN: usize = 1 << 32;
    #[cfg(not(all(unix, target_pointer_width = "64")))]
    const ALIGN: usize = 1 << 16;

    /// Room before the base for the reservation word (one page keeps the base aligned).
    #[cfg(all(unix, target_pointer_width = "64"))]
    const LEAD: usize = 4096;

    /// Maps `span` bytes of address space, inaccessible until protected otherwise.
    #[cfg(all(unix, target_pointer_width = "64"))]
    fn map(span: usize) -> Option<usize> {
        // SAFETY: an anonymous private mapping with no address hint.
        let raw = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                span,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        (raw != libc::MAP_FAILED).then_some(raw as usize)
    }

    #[cfg(all(unix, target_pointer_width = "64"))]
    pub(crate) fn reserve(size: usize) -> Option<NonNull<u8>> {
        // Reserve enough to find an aligned base with a page before it, then give back
        // what is not needed. Where the address space is limited (`ulimit -v`: containers,
        // shared hosts) the extra 4 GiB are refused: the region is then placed where the
        // system puts it. Nothing the machine does rests on the alignment (tables are
        // hashed by creation number), only heap dumps of two runs line up less well.
        let (start, span, align) = match map(size + ALIGN + LEAD) {
            Some(start) => (start, size + ALIGN + LEAD, ALIGN),
            None => (map(size + LEAD)?, size + LEAD, 4096),
        };
        let base = (start + LEAD).next_multiple_of(align);
        let lead_start = base - LEAD;
        // SAFETY: both trimmed ranges lie inside the mapping just made; the kept range
        // [lead_start, base + size) is made readable and writable.
        unsafe {
            if lead_start > start {
                libc::munmap(start as *mut libc::c_void, lead_start - start);
            }
            let end = base + size;
            if start + span > end {
                libc::munmap(end as *mut libc::c_void, start + span - end);
            }
            let kept = lead_start as *mut libc::c_void;
            if libc::mprotect(kept, LEAD + size, libc::PROT_READ | libc::PROT_WRITE) != 0 {
                libc::munmap(kept, LEAD + size);
                return None;
            }
            ((base - super::RESERVED_AT) as *mut usize).write(size);
        }
        NonNull::new(base as *mut u8)
    }

    #[cfg(all(unix, target_pointer_width = "64"))]
    pub fn release(base: NonNull<u8>, size: usize) {
        // SAFETY: the range was mapped by `reserve`.
        unsafe {
            libc::munmap(base.as_ptr().sub(LEAD).cast::<libc::c_void>(), LEAD + size);
        }
    }

    #[cfg(not(all(unix, target_pointer_width = "64")))]
    fn layout(size: usize) -> Option<std::alloc::Layout> {
        std::alloc::Layout::from_size_align(size + ALIGN, ALIGN).ok()
    }

    #[cfg(not(all(unix, target_pointer_width = "64")))]
    pub(crate) fn reserve(size: usize) -> Option<NonNull<u8>> {
        let layout = layout(size)?;
        // SAFETY: the layout has a non-zero size. The heap needs no zeroed memory (the
        // header is written, blocks are Lua's to fill); on WebAssembly, where zeroing would
        // touch every page of the region, it is not asked for.
        let raw = NonNull::new(unsafe {
            if cfg!(target_family = "wasm") {
                std::alloc::alloc(layout)
            } else {
                std::alloc::alloc_zeroed(layout)
            }
        })?;
        // SAFETY: the block is ALIGN + size bytes; the base is ALIGN bytes in.
        unsafe {
            let base = raw.as_ptr().add(ALIGN);
            (base.sub(super::RESERVED_AT) as *mut usize).write(size);
            NonNull::new(base)
        }
    }

    #[cfg(not(all(unix, target_pointer_width = "64")))]
    pub fn release(base: NonNull<u8>, size: usize) {
        if let Some(layout) = layout(size) {
            // SAFETY: allocated by `reserve` with this layout.
            unsafe { std::alloc::dealloc(base.as_ptr().sub(ALIGN), layout) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_cover_every_size_with_a_block_at_least_as_large() {
        let mut sizes: Vec<usize> = (1..5000).collect();
        sizes.extend((10..31).flat_map(|p| [(1usize << p) - 1, 1 << p, (1 << p) + 1]));
        for size in sizes {
            let class = class_of(size);
            assert!(class_size(class) >= size, "size {size} class {class}");
            if class > 0 {
                assert!(
                    class_size(class - 1) < size,
                    "size {size} not in the smallest class"
                );
            }
        }
    }

    #[test]
    fn the_base_is_aligned_and_blocks_are_reused_by_class() {
        let mut arena = Arena::new(1 << 20, 1 << 19).expect("reserve");
        #[cfg(all(unix, target_pointer_width = "64"))]
        assert_eq!(arena.base.as_ptr() as usize % (1 << 32), 0);
        unsafe {
            let a = arena.realloc(ptr::null_mut(), 0, 40);
            let b = arena.realloc(ptr::null_mut(), 0, 40);
            assert_eq!(b as usize - a as usize, 48);
            a.write_bytes(7, 40);
            let grown = arena.realloc(a, 40, 300);
            assert_eq!(*grown.add(39), 7, "contents kept when a block moves");
            let again = arena.realloc(ptr::null_mut(), 0, 33);
            assert_eq!(again, a, "the freed block is handed out again");
            assert_eq!(arena.used(), 40 + 300 + 33);
        }
    }

    #[test]
    fn the_limit_refuses_growth_but_never_a_shrink() {
        let mut arena = Arena::new(1 << 20, 1000).expect("reserve");
        unsafe {
            let a = arena.realloc(ptr::null_mut(), 0, 900);
            assert!(!a.is_null());
            assert!(arena.realloc(ptr::null_mut(), 0, 200).is_null());
            let shrunk = arena.realloc(a, 900, 10);
            assert!(!shrunk.is_null());
            assert_eq!(arena.used(), 10);
        }
    }

    #[test]
    fn a_restored_snapshot_gives_the_same_blocks_again() {
        let mut arena = Arena::new(1 << 20, 1 << 19).expect("reserve");
        unsafe {
            let a = arena.realloc(ptr::null_mut(), 0, 64);
            a.write_bytes(1, 64);
            let snapshot = arena.snapshot();
            let b = arena.realloc(ptr::null_mut(), 0, 64);
            a.write_bytes(2, 64);
            arena.realloc(a, 64, 0);
            arena.restore(&snapshot);
            assert_eq!(*a, 1);
            assert_eq!(arena.used(), 64);
            assert_eq!(arena.realloc(ptr::null_mut(), 0, 64), b);
        }
    }
}
