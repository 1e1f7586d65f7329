#version 330 core
// Expands each line into a screen-space quad uSize pixels wide (core profiles cap glLineWidth).
layout(lines) in;
layout(triangle_strip, max_vertices = 4) out;

in VS {
  vec4 color;
  vec2 uv;
} gin[];
out VS {
  vec4 color;
  vec2 uv;
} gout;

uniform vec2 uViewport;   // pixels
uniform float uSize;      // line width in pixels
uniform float uDepthBias; // pulls the line towards the eye, in NDC units

void emit(vec4 p, vec2 offsetNdc, vec4 color) {
  gout.color = color;
  gout.uv = vec2(0.0);
  gl_Position = vec4(p.xy + offsetNdc * p.w, p.z - uDepthBias * p.w, p.w);
  EmitVertex();
}

void main() {
  vec4 p0 = gl_in[0].gl_Position, p1 = gl_in[1].gl_Position;
  vec4 c0 = gin[0].color, c1 = gin[1].color;
  // Clip against the near plane (z = -w) so the perspective divide stays valid.
  float d0 = p0.z + p0.w, d1 = p1.z + p1.w;
  if (d0 < 0.0 && d1 < 0.0) return;
  if (d0 < 0.0) { float t = d0 / (d0 - d1); p0 = mix(p0, p1, t); c0 = mix(c0, c1, t); }
  if (d1 < 0.0) { float t = d1 / (d1 - d0); p1 = mix(p1, p0, t); c1 = mix(c1, c0, t); }
  vec2 s0 = p0.xy / p0.w * uViewport * 0.5, s1 = p1.xy / p1.w * uViewport * 0.5;
  vec2 dir = s1 - s0;
  float len = length(dir);
  dir = len > 1e-5 ? dir / len : vec2(1.0, 0.0);
  vec2 n = vec2(-dir.y, dir.x) * (uSize * 0.5) / (uViewport * 0.5);
  emit(p0, n, c0);
  emit(p0, -n, c0);
  emit(p1, n, c1);
  emit(p1, -n, c1);
  EndPrimitive();
}
