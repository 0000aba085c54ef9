// The window's display filters (src/host/filter.rs): one full-window triangle, cut by a
// scissor to the picture's rectangle; each filter is a fragment entry point. The console's
// picture is an sRGB texture, so samples give linear colours and blends happen in linear
// light; a darkening by `f` (a scanline, the grid, the vignette) is one of the colour as
// seen, about its sRGB encoding times `f` (`dim`). Every filter does as little per pixel as
// it can: on a software driver (llvmpipe) each operation is paid a million times a frame
// at 4x, and `none` is a bare texture sample, like `pixels`' own renderer.

struct Locals {
    // The picture's rectangle in the surface's pixels: x, y, width, height.
    rect: vec4<f32>,
    // The texture's width and height, the scale (surface pixels per console pixel), 0.
    size: vec4<f32>,
    // crt_scanline, crt_beam, crt_curvature, crt_vignette
    crt: vec4<f32>,
    // crt_brightness, lcd_grid, lcd_line, 0
    more: vec4<f32>,
    // The surface's width and height, 0, 0.
    surface: vec4<f32>,
}

// Set when the surface is not sRGB: the shader then encodes its colours itself.
override ENCODE_SRGB: bool = false;

@group(0) @binding(0) var picture: texture_2d<f32>;
@group(0) @binding(1) var nearest: sampler;
@group(0) @binding(2) var<uniform> locals: Locals;
@group(0) @binding(3) var bilinear: sampler;

struct Varyings {
    @builtin(position) position: vec4<f32>,
    // Where in the picture: 0..1 across its rectangle.
    @location(0) uv: vec2<f32>,
}

@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> Varyings {
    // One triangle covering the whole target: (-1,-1), (3,-1), (-1,3).
    let clip = vec2<f32>(f32(i32(index & 1u) * 4 - 1), f32(i32(index >> 1u) * 4 - 1));
    let pixel = vec2<f32>(clip.x + 1.0, 1.0 - clip.y) * 0.5 * locals.surface.xy;
    var out: Varyings;
    out.position = vec4<f32>(clip, 0.0, 1.0);
    out.uv = (pixel - locals.rect.xy) / locals.rect.zw;
    return out;
}

fn encode(linear: vec3<f32>) -> vec4<f32> {
    if !ENCODE_SRGB {
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

@fragment
fn fs_none(in: Varyings) -> @location(0) vec4<f32> {
    // At a whole-number scale each pixel's centre falls well inside one texel.
    return encode(textureSample(picture, nearest, in.uv).rgb);
}

@fragment
fn fs_lcd(in: Varyings) -> @location(0) vec4<f32> {
    let colour = textureSample(picture, nearest, in.uv).rgb;
    let scale = locals.size.z;
    // Where in its console pixel this surface pixel's centre is, in surface pixels: 0.5,
    // 1.5 .. scale - 0.5 across and down; the last `line` of them are the grid.
    let within = fract(in.uv * locals.size.xy) * scale;
    let edge = scale - max(1.0, round(locals.more.z * scale));
    let on_grid = scale >= 2.0 && max(within.x, within.y) > edge;
    return encode(select(colour, dim(colour, 1.0 - locals.more.y), on_grid));
}

@fragment
fn fs_crt(in: Varyings) -> @location(0) vec4<f32> {
    // The bulge: each axis stretched by the square of the other, so the edges' middles stay
    // put and the corners round off.
    var c = in.uv * 2.0 - 1.0;
    c = c * (1.0 + locals.crt.z * c.yx * c.yx);
    if max(abs(c.x), abs(c.y)) > 1.0 {
        return encode(vec3<f32>(0.0));
    }
    let p = (c * 0.5 + 0.5) * locals.size.xy;
    // The beam: a Gaussian `crt_beam` console pixels wide on each pixel of the row. Of the
    // two pixels either side of this point the right one's share of their sum is a logistic
    // curve of the distance; a smoothstep of the same 10-90% width stands for it, and the
    // bilinear sampler blends the two pixels by that share, on the row's middle.
    let left = floor(p.x - 0.5);
    let t = p.x - 0.5 - left;
    let width = max(locals.crt.y, 0.05);
    let k = min(3.6 * width * width, 0.5);
    let share = smoothstep(0.5 - k, 0.5 + k, t);
    let at = vec2<f32>(left + 0.5, floor(p.y) + 0.5) / locals.size.xy;
    let a = textureSampleLevel(picture, nearest, at, 0.0).rgb;
    let b = textureSampleLevel(picture, nearest, at + vec2<f32>(1.0 / locals.size.x, 0.0), 0.0).rgb;
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
fn fs_smooth(in: Varyings) -> @location(0) vec4<f32> {
    // Sharp-bilinear: inside each console pixel the colour is flat; only a band one surface
    // pixel wide at its edges blends with the neighbour.
    let p = in.uv * locals.size.xy;
    let scale = locals.size.z;
    let base = floor(p);
    let from_centre = p - base - 0.5;
    let flat = 0.5 - 0.5 / max(scale, 1.0);
    let f = (from_centre - clamp(from_centre, vec2<f32>(-flat), vec2<f32>(flat))) * scale + 0.5;
    return encode(textureSample(picture, bilinear, (base + f) / locals.size.xy).rgb);
}
