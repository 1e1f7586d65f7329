#version 330 core
in VS {
  vec4 color;
  vec2 uv;
} fs;

out vec4 fragColor;

void main() {
  float r2 = dot(fs.uv, fs.uv);
  if (r2 > 1.0) discard; // round points
  fragColor = fs.color;
}
