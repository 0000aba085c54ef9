// The window's display filters (src/host/filter.rs): one full-window triangle, cut by a
// scissor to the picture's rectangle; each filter is a fragment entry point. The console's
// picture is an sRGB texture, so loads and samples give linear colours and blends happen in
// linear light; a darkening by `f` (a scanline, the grid, the vignette) is one of the
// colour as seen, sRGB-encoded, so the parameters mean what they look like (`dim`).

struct Locals {
    // The picture's rectangle in the surface's pixels: x, y, width, height.
    rect: vec4<f32>,
    // The texture's width and height, the scale (surface pixels per console pixel), and 1.0
    // when the surface wants colours sRGB-encoded by the shader (a non-sRGB surface).
    size: vec4<f32>,
    // crt_scanline, crt_beam, crt_curvature, crt_vignette
    crt: vec4<f32>,
    // crt_brightness, lcd_grid, lcd_line, 0
    more: vec4<f32>,
}

@group(0) @binding(0) var picture: texture_2d<f32>;
@group(0) @binding(1) var bilinear: sampler;
@group(0) @binding(2) var<uniform> locals: Locals;

@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    // One triangle covering the whole target: (-1,-1), (3,-1), (-1,3).
    let x = f32(i32(index & 1u) * 4 - 1);
    let y = f32(i32(index >> 1u) * 4 - 1);
    return vec4<f32>(x, y, 0.0, 1.0);
}

fn encode(linear: vec3<f32>) -> vec4<f32> {
    if locals.size.w < 0.5 {
        return vec4<f32>(linear, 1.0);
    }
    let c = clamp(linear, vec3<f32>(0.0), vec3<f32>(1.0));
    let low = c * 12.92;
    let high = 1.055 * pow(c, vec3<f32>(1.0 / 2.4)) - 0.055;
    return vec4<f32>(select(high, low, c <= vec3<f32>(0.0031308)), 1.0);
}

// A linear colour darkened by `f` as the eye sees it: about its sRGB encoding times `f`
// (sRGB taken as a gamma of 2, which spares a `pow` per pixel).
fn dim(linear: vec3<f32>, f: f32) -> vec3<f32> {
    return linear * (f * f);
}

// The console pixel under the surface pixel whose centre is `frag`, at a whole-number scale.
fn texel_at(frag: vec2<f32>) -> vec2<i32> {
    let inside = floor(frag) - locals.rect.xy;
    let texel = floor((inside + 0.5) / locals.size.z);
    return vec2<i32>(clamp(texel, vec2<f32>(0.0), locals.size.xy - 1.0));
}

@fragment
fn fs_none(@builtin(position) frag: vec4<f32>) -> @location(0) vec4<f32> {
    return encode(textureLoad(picture, texel_at(frag.xy), 0).rgb);
}

@fragment
fn fs_lcd(@builtin(position) frag: vec4<f32>) -> @location(0) vec4<f32> {
    let texel = texel_at(frag.xy);
    let colour = textureLoad(picture, texel, 0).rgb;
    let scale = locals.size.z;
    // Where in its console pixel this surface pixel is, 0 .. scale - 1 across and down.
    let within = floor(frag.xy) - locals.rect.xy - vec2<f32>(texel) * scale;
    let line = max(1.0, round(locals.more.z * scale));
    let on_grid = scale >= 2.0 && (within.x >= scale - line || within.y >= scale - line);
    return encode(select(colour, dim(colour, 1.0 - locals.more.y), on_grid));
}

@fragment
fn fs_crt(@builtin(position) frag: vec4<f32>) -> @location(0) vec4<f32> {
    let uv = (frag.xy - locals.rect.xy) / locals.rect.zw;
    // The bulge: each axis stretched by the square of the other, so the edges' middles stay
    // put and the corners round off.
    var c = uv * 2.0 - 1.0;
    c = c * (1.0 + locals.crt.z * c.yx * c.yx);
    if abs(c.x) > 1.0 || abs(c.y) > 1.0 {
        return encode(vec3<f32>(0.0));
    }
    let p = (c * 0.5 + 0.5) * locals.size.xy;
    let last = vec2<i32>(locals.size.xy) - 1;
    let row = min(i32(p.y), last.y);
    // The beam: a Gaussian `crt_beam` console pixels wide on each pixel of the row; of the
    // two pixels either side of this point, the right one's share of their sum.
    let x = p.x - 0.5;
    let left = floor(x);
    let t = x - left;
    let width = max(locals.crt.y, 0.05);
    let share = 1.0 / (1.0 + exp((0.5 - t) / (width * width)));
    let a = textureLoad(picture, vec2<i32>(clamp(i32(left), 0, last.x), row), 0).rgb;
    let b = textureLoad(picture, vec2<i32>(clamp(i32(left) + 1, 0, last.x), row), 0).rgb;
    let colour = mix(a, b, share);
    // The scanline: full brightness along the row's middle, darkest in the gap between rows;
    // taken at two heights a quarter of a screen pixel apart, so the curved rows do not
    // alias into steps.
    let spread = 0.25 / locals.size.z;
    let d0 = abs(fract(p.y - spread) - 0.5) * 2.0;
    let d1 = abs(fract(p.y + spread) - 0.5) * 2.0;
    let gap = 0.5 * (smoothstep(0.25, 1.0, d0) + smoothstep(0.25, 1.0, d1));
    var f = 1.0 - locals.crt.x * gap;
    // The vignette: corners darker.
    let r = dot(c, c) * 0.5;
    f *= 1.0 - locals.crt.w * r * r;
    return encode(dim(colour, f * locals.more.x));
}

@fragment
fn fs_smooth(@builtin(position) frag: vec4<f32>) -> @location(0) vec4<f32> {
    // Sharp-bilinear: inside each console pixel the colour is flat; only a band one surface
    // pixel wide at its edges blends with the neighbour.
    let p = (frag.xy - locals.rect.xy) / locals.rect.zw * locals.size.xy;
    let scale = locals.size.z;
    let base = floor(p);
    let from_centre = p - base - 0.5;
    let flat = 0.5 - 0.5 / max(scale, 1.0);
    let f = (from_centre - clamp(from_centre, vec2<f32>(-flat), vec2<f32>(flat))) * scale + 0.5;
    let at = (base + f) / locals.size.xy;
    return encode(textureSampleLevel(picture, bilinear, at, 0.0).rgb);
}
