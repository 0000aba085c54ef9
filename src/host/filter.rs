//! The window's display filters on the GPU ([`FilterRenderer`]): draws the `pixels` texture
//! (the console's exact 256x256 picture) onto the window's surface through one of the
//! filters of [`DisplayFilter`], with [`FilterParams`] as the shader's uniforms. Only what the
//! window shows changes; the framebuffer, screenshots, GIFs and hashes never see a filter.
//!
//! Where the picture goes is [`layout`]: `none` and `lcd` at the largest whole-number scale,
//! `crt` and `smooth` as big as the window allows, both centred with the 1:1 aspect kept.

use std::borrow::Cow;

use pixels::wgpu;

use crate::views::display_filter::{DisplayFilter, FilterParams};

/// The picture's place in a surface, in surface pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    pub x: u32,
    pub y: u32,
    /// The picture's width and height.
    pub width: u32,
    pub height: u32,
    /// Surface pixels per console pixel.
    pub scale: f32,
}

/// Where a `texture`-sized picture goes in a `surface`-sized window with `filter`: centred,
/// the aspect kept, at a whole-number scale (at least 1) for the filters that want one.
pub fn layout(filter: DisplayFilter, texture: (u32, u32), surface: (u32, u32)) -> Placement {
    let (tw, th) = (texture.0.max(1) as f32, texture.1.max(1) as f32);
    let (sw, sh) = (surface.0.max(1), surface.1.max(1));
    let fit = (sw as f32 / tw).min(sh as f32 / th);
    let scale = if filter.integer_scale() {
        fit.floor().max(1.0)
    } else {
        fit
    };
    let width = ((tw * scale).round() as u32).min(sw);
    let height = ((th * scale).round() as u32).min(sh);
    Placement {
        x: (sw - width) / 2,
        y: (sh - height) / 2,
        width,
        height,
        scale,
    }
}

/// The uniforms' bytes, as `Locals` in `filter.wgsl` lays them out: five `vec4<f32>`.
fn uniforms(
    placement: &Placement,
    texture: (u32, u32),
    surface: (u32, u32),
    params: &FilterParams,
) -> [u8; UNIFORMS] {
    let values: [f32; UNIFORMS / 4] = [
        placement.x as f32,
        placement.y as f32,
        placement.width as f32,
        placement.height as f32,
        texture.0 as f32,
        texture.1 as f32,
        placement.scale,
        0.0,
        params.crt_scanline,
        params.crt_beam,
        params.crt_curvature,
        params.crt_vignette,
        params.crt_brightness,
        params.lcd_grid,
        params.lcd_line,
        0.0,
        surface.0 as f32,
        surface.1 as f32,
        0.0,
        0.0,
    ];
    let mut bytes = [0; UNIFORMS];
    for (chunk, value) in bytes.chunks_exact_mut(4).zip(values) {
        chunk.copy_from_slice(&value.to_le_bytes());
    }
    bytes
}

/// The size of `Locals` in `filter.wgsl`.
const UNIFORMS: usize = 80;

/// The GPU pipelines of the four filters, over one `pixels` texture.
pub struct FilterRenderer {
    /// One pipeline per filter, in [`DisplayFilter::ALL`]'s order.
    pipelines: Vec<wgpu::RenderPipeline>,
    bind_group: wgpu::BindGroup,
    uniforms: wgpu::Buffer,
    texture: (u32, u32),
}

impl FilterRenderer {
    /// Pipelines drawing `pixels`' texture into targets of its render format.
    pub fn new(pixels: &pixels::Pixels<'_>) -> FilterRenderer {
        let device = pixels.device();
        let format = pixels.render_texture_format();
        let extent = pixels.context().texture_extent;
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("kairo_filters"),
            source: wgpu::ShaderSource::Wgsl(Cow::Borrowed(include_str!("filter.wgsl"))),
        });
        let sampler = |label, filter| {
            device.create_sampler(&wgpu::SamplerDescriptor {
                label: Some(label),
                address_mode_u: wgpu::AddressMode::ClampToEdge,
                address_mode_v: wgpu::AddressMode::ClampToEdge,
                address_mode_w: wgpu::AddressMode::ClampToEdge,
                mag_filter: filter,
                min_filter: filter,
                mipmap_filter: wgpu::MipmapFilterMode::Nearest,
                ..Default::default()
            })
        };
        let nearest = sampler("kairo_filters_nearest", wgpu::FilterMode::Nearest);
        let bilinear = sampler("kairo_filters_bilinear", wgpu::FilterMode::Linear);
        let uniforms = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("kairo_filters_uniforms"),
            size: UNIFORMS as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("kairo_filters_layout"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        multisampled: false,
                        view_dimension: wgpu::TextureViewDimension::D2,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 2,
                    visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: wgpu::BufferSize::new(UNIFORMS as u64),
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 3,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
        let view = pixels
            .texture()
            .create_view(&wgpu::TextureViewDescriptor::default());
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("kairo_filters_bind_group"),
            layout: &layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&view),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(&nearest),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: uniforms.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: wgpu::BindingResource::Sampler(&bilinear),
                },
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("kairo_filters_pipeline_layout"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        // A surface that is not sRGB gets its colours encoded by the shader.
        let encode = [("ENCODE_SRGB", if format.is_srgb() { 0.0 } else { 1.0 })];
        let pipelines = DisplayFilter::ALL
            .iter()
            .map(|filter| {
                let entry = format!("fs_{}", filter.name());
                device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                    label: Some(&entry),
                    layout: Some(&pipeline_layout),
                    vertex: wgpu::VertexState {
                        module: &module,
                        entry_point: Some("vs_main"),
                        buffers: &[],
                        compilation_options: wgpu::PipelineCompilationOptions::default(),
                    },
                    primitive: wgpu::PrimitiveState::default(),
                    depth_stencil: None,
                    multisample: wgpu::MultisampleState::default(),
                    fragment: Some(wgpu::FragmentState {
                        module: &module,
                        entry_point: Some(&entry),
                        compilation_options: wgpu::PipelineCompilationOptions {
                            constants: &encode,
                            ..Default::default()
                        },
                        targets: &[Some(wgpu::ColorTargetState {
                            format,
                            blend: None,
                            write_mask: wgpu::ColorWrites::ALL,
                        })],
                    }),
                    multiview_mask: None,
                    cache: None,
                })
            })
            .collect();
        FilterRenderer {
            pipelines,
            bind_group,
            uniforms,
            texture: (extent.width, extent.height),
        }
    }

    /// Records drawing the picture into `target` (a `surface`-sized view, cleared to black
    /// around the picture) with `filter`.
    pub fn render(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        queue: &wgpu::Queue,
        surface: (u32, u32),
        filter: DisplayFilter,
        params: &FilterParams,
    ) {
        let placement = layout(filter, self.texture, surface);
        queue.write_buffer(
            &self.uniforms,
            0,
            &uniforms(&placement, self.texture, surface, params),
        );
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("kairo_filters_pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                    store: wgpu::StoreOp::Store,
                },
                depth_slice: None,
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        let at = DisplayFilter::ALL
            .iter()
            .position(|f| *f == filter)
            .unwrap_or(0);
        pass.set_pipeline(&self.pipelines[at]);
        pass.set_bind_group(0, &self.bind_group, &[]);
        pass.set_scissor_rect(placement.x, placement.y, placement.width, placement.height);
        pass.draw(0..3, 0..1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_number_filters_letterbox_and_the_others_fill_centred() {
        let at = |f, w, h| {
            let p = layout(f, (256, 256), (w, h));
            (p.x, p.y, p.width, p.height, p.scale)
        };
        assert_eq!(at(DisplayFilter::None, 768, 768), (0, 0, 768, 768, 3.0));
        assert_eq!(at(DisplayFilter::Lcd, 1024, 800), (128, 16, 768, 768, 3.0));
        assert_eq!(at(DisplayFilter::None, 1000, 700), (244, 94, 512, 512, 2.0));
        assert_eq!(
            at(DisplayFilter::Smooth, 1000, 700),
            (150, 0, 700, 700, 700.0 / 256.0)
        );
        assert_eq!(
            at(DisplayFilter::Crt, 1920, 1080),
            (420, 0, 1080, 1080, 1080.0 / 256.0)
        );
        // Smaller than the picture: scale 1, cut to the window.
        assert_eq!(at(DisplayFilter::None, 200, 300), (0, 22, 200, 256, 1.0));
    }

    #[test]
    fn uniforms_carry_the_params_in_the_shaders_order() {
        let params = FilterParams::default();
        let placement = layout(DisplayFilter::Crt, (256, 256), (1024, 1024));
        let bytes = uniforms(&placement, (256, 256), (1024, 1024), &params);
        let value = |i: usize| f32::from_le_bytes(bytes[i * 4..i * 4 + 4].try_into().unwrap());
        assert_eq!(value(6), 4.0);
        assert_eq!(value(8), params.crt_scanline);
        assert_eq!(value(12), params.crt_brightness);
        assert_eq!(value(14), params.lcd_line);
        assert_eq!(value(16), 1024.0);
    }
}
