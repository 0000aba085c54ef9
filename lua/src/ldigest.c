/*
** Kairo: a digest of everything a Lua state holds that a program can reach, the
** same on every platform and run for states that hold the same values (lua.h,
** lua_statedigest). Netplay's peers compare it with the machines' hardware to
** find a desync in a cart's script state (lua/README.md).
**
** The walk starts at the registry (globals, loaded modules, the embedder's
** references), the main thread and the basic types' metatables, and visits each
** table, function, userdata and thread once. An object is known by its creation
** number (lua_objectid's, the same on every platform), never by its address; a
** table's entries are summed in any order, so how a table lays them out (array or
** hash part, slot order) does not matter. Strings count by their bytes, numbers
** by their bits. Left out: addresses (light userdata, C functions), userdata's raw
** bytes and size (which may hold the embedder's pointers, and whose size follows
** the platform's pointer width), a coroutine's count of call records (the collector
** frees spare ones), and the entries of weak tables, which the collector removes at
** times that depend on byte counts that differ between platforms. Nothing in the
** state is changed, and nothing is allocated in it (the walk's bookkeeping is
** malloc'd apart).
*/

#define ldigest_c
#define LUA_CORE

#include "lprefix.h"

#include <stdlib.h>
#include <string.h>

#include "lua.h"

#include "lfunc.h"
#include "lobject.h"
#include "lstate.h"
#include "lstring.h"
#include "ltable.h"
#include "ltm.h"


typedef unsigned long long u64;

/* objects to visit, and the set of those already met (by address) */
typedef struct Walk {
  const GCObject **todo;
  size_t ntodo, captodo;
  const void **seen;  /* open addressing; NULL is empty */
  size_t nseen, capseen;
  int failed;  /* out of memory: the digest is of no use */
  lua_State *L;
  global_State *g;
} Walk;


static u64 mix (u64 x) {  /* splitmix64's finalizer */
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ULL;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBULL;
  x ^= x >> 31;
  return x;
}


static u64 bytes_hash (const char *s, size_t len) {  /* FNV-1a 64 */
  u64 h = 0xCBF29CE484222325ULL;
  size_t i;
  for (i = 0; i < len; i++) {
    h ^= (unsigned char)s[i];
    h *= 0x00000100000001B3ULL;
  }
  return h ^ len;
}


static size_t slot_of (const void *p, size_t cap) {
  u64 x = mix((u64)(size_t)p);
  return (size_t)(x & (cap - 1));
}


/* adds 'p' to the set; returns 1 if it was new */
static int see (Walk *w, const void *p) {
  size_t i;
  if (w->failed) return 0;
  if (2 * (w->nseen + 1) > w->capseen) {  /* grow to keep it at most half full */
    size_t cap = w->capseen ? 2 * w->capseen : 1024;
    const void **bigger = (const void **)calloc(cap, sizeof(void *));
    size_t k;
    if (bigger == NULL) { w->failed = 1; return 0; }
    for (k = 0; k < w->capseen; k++) {
      const void *q = w->seen[k];
      if (q != NULL) {
        size_t j = slot_of(q, cap);
        while (bigger[j] != NULL) j = (j + 1) & (cap - 1);
        bigger[j] = q;
      }
    }
    free((void *)w->seen);
    w->seen = bigger;
    w->capseen = cap;
  }
  i = slot_of(p, w->capseen);
  while (w->seen[i] != NULL) {
    if (w->seen[i] == p) return 0;
    i = (i + 1) & (w->capseen - 1);
  }
  w->seen[i] = p;
  w->nseen++;
  return 1;
}


static void push (Walk *w, const GCObject *o) {
  if (!see(w, o)) return;
  if (w->ntodo == w->captodo) {
    size_t cap = w->captodo ? 2 * w->captodo : 1024;
    const GCObject **bigger =
        (const GCObject **)realloc((void *)w->todo, cap * sizeof(GCObject *));
    if (bigger == NULL) { w->failed = 1; return; }
    w->todo = bigger;
    w->captodo = cap;
  }
  w->todo[w->ntodo++] = o;
}


static u64 object_id (const GCObject *o) {
  int has;
  return (u64)luaE_serialof(o, &has);
}


/* the hash of a value; an object it refers to is queued to be visited */
static u64 value_hash (Walk *w, const TValue *v) {
  int tag = ttypetag(v);
  u64 h = (u64)tag << 56;
  switch (tag) {
    case LUA_VNIL: case LUA_VEMPTY: case LUA_VABSTKEY: case LUA_VFALSE: case LUA_VTRUE:
      return mix(h);
    case LUA_VNUMINT:
      return mix(h ^ mix((u64)ivalue(v)));
    case LUA_VNUMFLT: {
      lua_Number n = fltvalue(v);
      u64 bits = 0;
      memcpy(&bits, &n, sizeof(n) < sizeof(bits) ? sizeof(n) : sizeof(bits));
      return mix(h ^ mix(bits));
    }
    case LUA_VSHRSTR: case LUA_VLNGSTR: {
      const TString *s = tsvalue(v);
      return mix(h ^ bytes_hash(getstr(s), tsslen(s)));
    }
    case LUA_VLIGHTUSERDATA: case LUA_VLCF:
      return mix(h);  /* an address: the same program has it, at another place */
    case LUA_VTABLE: case LUA_VLCL: case LUA_VCCL: case LUA_VUSERDATA:
    case LUA_VTHREAD: {
      const GCObject *o = gcvalue(v);
      push(w, o);
      return mix(h ^ mix(object_id(o)));
    }
    default:  /* not a value a program can hold */
      return mix(h);
  }
}


static int is_weak (Walk *w, const Table *t) {
  const TValue *mode;
  if (t->metatable == NULL) return 0;
  mode = luaH_getshortstr(t->metatable, w->g->tmname[TM_MODE]);
  if (!ttisstring(mode)) return 0;
  return strchr(getstr(tsvalue(mode)), 'k') != NULL ||
         strchr(getstr(tsvalue(mode)), 'v') != NULL;
}


static u64 table_hash (Walk *w, const Table *t) {
  u64 h = mix((u64)LUA_VTABLE << 56 ^ t->serial);
  u64 entries = 0;
  unsigned int i, asize;
  size_t n, size;
  if (t->metatable != NULL) {
    TValue mt;
    sethvalue(w->L, &mt, cast(Table *, t->metatable));
    h = mix(h ^ value_hash(w, &mt));
  }
  if (is_weak(w, t))
    return mix(h ^ 0x77);  /* its entries come and go with the collector */
  asize = luaH_realasize(t);
  for (i = 0; i < asize; i++) {
    const TValue *v = &t->array[i];
    if (!isempty(v)) {
      TValue k;
      setivalue(&k, (lua_Integer)i + 1);
      entries += mix(value_hash(w, &k) * 3 ^ value_hash(w, v));
    }
  }
  size = (size_t)sizenode(t);
  for (n = 0; n < size; n++) {
    const Node *node = &t->node[n];
    if (!isempty(gval(node)) && !keyisnil(node) && !keyisdead(node)) {
      TValue k;
      getnodekey(w->L, &k, node);
      entries += mix(value_hash(w, &k) * 3 ^ value_hash(w, gval(node)));
    }
  }
  return mix(h ^ entries);
}


static u64 object_hash (Walk *w, const GCObject *o) {
  switch (o->tt) {
    case LUA_VTABLE:
      return table_hash(w, gco2t(o));
    case LUA_VLCL: {
      const LClosure *f = gco2lcl(o);
      const Proto *p = f->p;
      u64 h = mix((u64)LUA_VLCL << 56 ^ f->serial);
      int i;
      /* the function: where it was defined (the same cart on every peer) */
      h = mix(h ^ (u64)p->linedefined ^ ((u64)p->numparams << 32));
      if (p->source != NULL)
        h = mix(h ^ bytes_hash(getstr(p->source), tsslen(p->source)));
      for (i = 0; i < f->nupvalues; i++) {
        const UpVal *uv = f->upvals[i];
        u64 v = uv != NULL ? value_hash(w, uv->v.p) : 0;
        h = mix(h ^ v ^ (u64)i);
      }
      return h;
    }
    case LUA_VCCL: {
      const CClosure *f = gco2ccl(o);
      u64 h = mix((u64)LUA_VCCL << 56 ^ f->serial);
      int i;
      for (i = 0; i < f->nupvalues; i++)
        h = mix(h ^ value_hash(w, &f->upvalue[i]) ^ (u64)i);
      return h;
    }
    case LUA_VUSERDATA: {
      const Udata *u = gco2u(o);
      /* not u->len: the embedder's values are smaller with 32-bit pointers */
      u64 h = mix((u64)LUA_VUSERDATA << 56 ^ u->serial);
      int i;
      if (u->metatable != NULL) {
        TValue mt;
        sethvalue(w->L, &mt, cast(Table *, u->metatable));
        h = mix(h ^ value_hash(w, &mt));
      }
      for (i = 0; i < u->nuvalue; i++)
        h = mix(h ^ value_hash(w, &u->uv[i].uv) ^ (u64)i);
      return h;
    }
    case LUA_VTHREAD: {
      const lua_State *th = gco2th(o);
      u64 h = mix((u64)LUA_VTHREAD << 56 ^ th->serial ^ ((u64)th->status << 32));
      StkId s;
      u64 i = 0;
      for (s = th->stack.p; s < th->top.p; s++, i++)
        h = mix(h ^ value_hash(w, s2v(s)) ^ i);
      /* not th->nci: spare call records are freed when the collector runs */
      return mix(h);
    }
    default:
      return 0;
  }
}


LUA_API int lua_statedigest (lua_State *L, unsigned long long *digest) {
  Walk w;
  global_State *g = G(L);
  u64 sum = 0;
  int t;
  memset(&w, 0, sizeof(w));
  w.L = L;
  w.g = g;
  sum += value_hash(&w, &g->l_registry);
  push(&w, obj2gco(g->mainthread));
  for (t = 0; t < LUA_NUMTYPES; t++) {
    if (g->mt[t] != NULL) {
      TValue mt;
      sethvalue(L, &mt, g->mt[t]);
      sum += mix(value_hash(&w, &mt) ^ (u64)t);
    }
  }
  while (w.ntodo > 0 && !w.failed) {
    const GCObject *o = w.todo[--w.ntodo];
    sum += mix(object_hash(&w, o));
  }
  free((void *)w.todo);
  free((void *)w.seen);
  *digest = mix(sum ^ w.nseen);
  return !w.failed;
}
