#version 330 core
// Expands each point into a round screen-space sprite uSize pixels across.
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;

in VS {
  vec4 color;
  vec2 uv;
} gin[];
out VS {
  vec4 color;
  vec2 uv;
} gout;

uniform vec2 uViewport;
uniform float uSize;
uniform float uDepthBias;

void main() {
  vec4 p = gl_in[0].gl_Position;
  if (p.z + p.w < 0.0) return; // in front of the near plane only
  vec2 h = vec2(uSize * 0.5) / (uViewport * 0.5);
  for (int i = 0; i < 4; ++i) {
    vec2 c = vec2((i & 1) != 0 ? 1.0 : -1.0, (i & 2) != 0 ? 1.0 : -1.0);
    gout.color = gin[0].color;
    gout.uv = c;
    gl_Position = vec4(p.xy + c * h * p.w, p.z - uDepthBias * p.w, p.w);
    EmitVertex();
  }
  EndPrimitive();
}
