//! Cart API: profiler sections. A cart marks the parts of its frame it wants measured with
//! `prof_begin(name)` / `prof_end()`; `kairo profile` and the window's overlay report them.

use mlua::MultiValue;

use crate::meter::Unit;
use crate::script::args::Arg;
use crate::script::call::{ApiFn, ApiGroup, Call, LuaResult};
use crate::spec::cost;

pub(crate) const GROUP: ApiGroup = ApiGroup {
    title: "Profiling",
    intro: "Sections of the frame the profiler reports by name (see `docs/profiling.md`). A \
            section counts every cycle charged between its `prof_begin` and `prof_end`, in \
            every unit, nested sections included; the two calls' own cost is not counted. \
            Sections work the same whether the profiler is on or not.",
    functions: &[
        ApiFn {
            name: "prof_begin",
            args: &[Arg::str("name")],
            returns: "",
            doc: "Opens section `name` (1 to 32 bytes). Sections nest up to 16 deep; one frame \
                  may use up to 64 different names. A section still open when the frame ends \
                  is closed there, with a warning in the log the first time.",
            cost: &[],
            call: prof_begin,
        },
        ApiFn {
            name: "prof_end",
            args: &[],
            returns: "",
            doc: "Closes the innermost open section. An error if none is open.",
            cost: &[],
            call: prof_end,
        },
    ],
    constants: &[],
};

fn prof_begin(c: &mut Call) -> LuaResult<MultiValue> {
    let name = c.str_arg(0)?;
    c.context(|ctx| {
        let now = ctx.meter.cycles();
        ctx.profile.begin(&name, now)
    })?
    .map_err(|e| c.error(e))?;
    c.ret(())
}

fn prof_end(c: &mut Call) -> LuaResult<MultiValue> {
    // This call's own cost was charged on entry; leave it out of the section.
    c.context(|ctx| {
        let mut now = ctx.meter.cycles();
        now.sub(Unit::Script, cost::API_CALL);
        ctx.profile.end(now)
    })?
    .map_err(|e| c.error(e))?;
    c.ret(())
}
