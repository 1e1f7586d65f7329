// Args.h: one argv parser for command-line tools (std only, header-only).
//
// Options and positional arguments are declared once, each with its names, the name of its value,
// a help text and its kind; parse() writes into the caller's variables, and usage() / help() are
// generated from the same declarations. A variable's value before parse() is its default (shown in
// the help where it is a valid value).
//
//   int repeat = 1;
//   std::string mesh, json;
//   base::Args args("navbench query", "Runs a test-case file.");
//   args.positional("MESH.bin", &mesh, "tile set")
//       .text("--json", "OUT.jsonl", &json, "one JSON object per case")
//       .integer("--repeat", "R", &repeat, 1, 100000, "runs of the whole file");
//   int code = 0;
//   if (!args.parseOrReport(argc, argv, &code)) return code; // 0 after --help, 2 after an error
//
// Kinds: flag (no value), text, texts (repeatable, each value appended), integer and number (a
// closed range, checked), positional (required unless optional() follows). Names are "-o, --out"
// (one or more, comma separated; the first is the one usage() shows). A value follows its option
// as the next argument or after '=' (`--repeat=3`). "--" ends the options; "-" alone is a
// positional. `-h` and `--help` are always there.
//
// Refused, with a message naming the option and the problem: an unknown option, an option without
// its value, a flag given a value, a number that is not one or is out of its range, a missing
// required option or positional, one positional too many. The variable of a refused value is left
// as it was.
#pragma once

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

namespace base {

class Args {
public:
  enum class Outcome { Run, Help, Error };

  /// `program`: the command as typed ("navbench bake"); it starts the usage line and messages.
  /// `about`: a paragraph for help(), after the usage line ("" = none).
  explicit Args(std::string program, std::string about = "") : m_program(std::move(program)), m_about(std::move(about)) {}

  /// An option without a value: sets *out to true.
  Args& flag(const char* names, bool* out, const char* help) {
    Decl d = decl(names, "", help);
    d.isFlag = true;
    d.set = [out](const std::string&) {
      *out = true;
      return true;
    };
    return add(std::move(d));
  }

  /// An option with a text value (a file name, a word).
  Args& text(const char* names, const char* value, std::string* out, const char* help) {
    Decl d = decl(names, value, help);
    if (!out->empty()) d.defaultText = *out;
    d.set = [out](const std::string& v) {
      *out = v;
      return true;
    };
    return add(std::move(d));
  }

  /// A repeatable option: each value is appended to *out, in command-line order.
  Args& texts(const char* names, const char* value, std::vector<std::string>* out, const char* help) {
    Decl d = decl(names, value, help);
    d.repeated = true;
    d.set = [out](const std::string& v) {
      out->push_back(v);
      return true;
    };
    return add(std::move(d));
  }

  /// An option with a whole number in [lo, hi] (decimal; hi at most what T holds).
  template <class T> Args& integer(const char* names, const char* value, T* out, long long lo, long long hi, const char* help) {
    static_assert(std::is_integral<T>::value, "integer() needs an integral variable");
    Decl d = decl(names, value, help);
    d.expects = "a number in " + std::to_string(lo) + ".." + std::to_string(hi);
    if (static_cast<long long>(*out) >= lo && static_cast<long long>(*out) <= hi) d.defaultText = std::to_string(*out);
    d.set = [out, lo, hi](const std::string& v) {
      if (v.empty() || v.find_first_of(" \t") != std::string::npos) return false;
      char* end = nullptr;
      errno = 0;
      const long long n = std::strtoll(v.c_str(), &end, 10);
      if (errno || *end || n < lo || n > hi) return false;
      *out = static_cast<T>(n);
      return true;
    };
    return add(std::move(d));
  }

  /// An option with a finite number in [lo, hi].
  template <class T> Args& number(const char* names, const char* value, T* out, double lo, double hi, const char* help) {
    static_assert(std::is_floating_point<T>::value, "number() needs a float or double variable");
    Decl d = decl(names, value, help);
    d.expects = "a number in " + shortNumber(lo) + ".." + shortNumber(hi);
    if (double(*out) >= lo && double(*out) <= hi) d.defaultText = shortNumber(double(*out));
    d.set = [out, lo, hi](const std::string& v) {
      if (v.empty() || v.find_first_of(" \t") != std::string::npos) return false;
      char* end = nullptr;
      const double n = std::strtod(v.c_str(), &end);
      if (*end || !std::isfinite(n) || n < lo || n > hi) return false;
      *out = static_cast<T>(n);
      return true;
    };
    return add(std::move(d));
  }

  /// The next positional argument (declaration order). Required unless optional() follows.
  Args& positional(const char* value, std::string* out, const char* help) {
    Decl d;
    d.value = value;
    d.help = help;
    d.positional = true;
    d.required = true;
    d.set = [out](const std::string& v) {
      *out = v;
      return true;
    };
    return add(std::move(d));
  }

  /// The remaining positional arguments (declared last): each appended to *out, in order; at least
  /// one unless optional() follows. Usage shows "VALUE...".
  Args& positionals(const char* value, std::vector<std::string>* out, const char* help) {
    positional(value, nullptr, help);
    m_decls.back().repeated = true;
    m_decls.back().set = [out](const std::string& v) {
      out->push_back(v);
      return true;
    };
    return *this;
  }

  /// The positional declared last may be left out.
  Args& optional() {
    if (!m_decls.empty() && m_decls.back().positional) m_decls.back().required = false;
    return *this;
  }

  /// The option declared last must be given. `missing` is the message when it is not (default
  /// "needs -o OUT.bin").
  Args& required(const char* missing = nullptr) {
    if (!m_decls.empty() && !m_decls.back().positional) {
      m_decls.back().required = true;
      if (missing) m_decls.back().missing = missing;
    }
    return *this;
  }

  /// A paragraph printed after the options by help().
  Args& note(const char* text) {
    m_notes.emplace_back(text);
    return *this;
  }

  /// Parses argv[1..argc) (argv[0], the command's name, is skipped). Run: every variable set;
  /// Help: -h / --help was given (nothing else checked); Error: error() says why.
  Outcome parse(int argc, const char* const* argv) {
    m_error.clear();
    for (Decl& d : m_decls) d.given = false;
    size_t nextPositional = 0;
    bool optionsEnded = false;
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i] ? argv[i] : "";
      if (a == "--") break;
      if (a == "-h" || a == "--help") return Outcome::Help;
    }
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i] ? argv[i] : "";
      if (!optionsEnded && a == "--") {
        optionsEnded = true;
        continue;
      }
      if (optionsEnded || a.size() < 2 || a[0] != '-') {
        Decl* p = positionalAt(nextPositional++);
        if (!p) return fail("unexpected argument " + a);
        p->set(a);
        p->given = true;
        continue;
      }
      const size_t eq = a.rfind("--", 0) == 0 ? a.find('=') : std::string::npos;
      const std::string name = a.substr(0, eq);
      Decl* d = find(name);
      if (!d) return fail("unknown option " + name);
      if (d->given && !d->repeated && !d->isFlag) return fail(name + " given twice");
      if (d->isFlag) {
        if (eq != std::string::npos) return fail(name + " takes no value");
        d->set("");
        d->given = true;
        continue;
      }
      const bool inline_ = eq != std::string::npos;
      if (!inline_ && i + 1 >= argc) return fail(name + " needs " + expects(*d));
      const std::string v = inline_ ? a.substr(eq + 1) : std::string(argv[++i] ? argv[i] : "");
      if (!d->set(v)) return fail(name + " needs " + expects(*d) + ", not '" + v + "'");
      d->given = true;
    }
    std::vector<std::string> missing;
    for (const Decl& d : m_decls)
      if (d.positional && d.required && !d.given) missing.push_back(d.value);
    if (!missing.empty()) {
      std::string list;
      for (size_t i = 0; i < missing.size(); ++i)
        list += (i == 0 ? "" : i + 1 == missing.size() ? " and " : ", ") + missing[i];
      return fail("needs " + list);
    }
    for (const Decl& d : m_decls)
      if (!d.positional && d.required && !d.given)
        return fail(d.missing.empty() ? "needs " + d.names[0] + " " + d.value : d.missing);
    return Outcome::Run;
  }

  /// What the last parse() refused ("--repeat needs a number in 1..100000, not 'x'").
  const std::string& error() const { return m_error; }

  /// The option (any of its names) or positional (its value name) was on the last command line.
  bool given(const char* name) const {
    for (const Decl& d : m_decls) {
      if (d.positional ? d.value == name : hasName(d, name)) return d.given;
    }
    return false;
  }

  /// "usage: PROGRAM POS1 [POS2] -o OUT [--flag] [--opt V]..." (no newline).
  std::string usage() const {
    std::string u = "usage: " + m_program;
    for (const Decl& d : m_decls)
      if (d.positional) {
        const std::string v = d.value + (d.repeated ? "..." : "");
        u += d.required ? " " + v : " [" + v + "]";
      }
    for (const Decl& d : m_decls)
      if (!d.positional && d.required) u += " " + synopsis(d);
    for (const Decl& d : m_decls)
      if (!d.positional && !d.required) u += " [" + synopsis(d) + (d.repeated ? "]..." : "]");
    return u;
  }

  /// The usage line, the about paragraph, one entry per declaration and the notes, each line
  /// ending in '\n'. Help texts may hold '\n'; their lines are aligned under the first.
  std::string help() const {
    std::vector<std::pair<std::string, std::string>> rows;
    for (const Decl& d : m_decls)
      if (d.positional) rows.emplace_back(d.value, d.help);
    for (const Decl& d : m_decls) {
      if (d.positional) continue;
      std::string left;
      for (size_t i = 0; i < d.names.size(); ++i) left += (i ? ", " : "") + d.names[i];
      if (!d.isFlag) left += " " + d.value;
      std::string h = d.help;
      std::string extra;
      if (!d.expects.empty()) extra = d.expects.substr(d.expects.find(' ', 2) + 1); // "in LO..HI"
      if (!d.defaultText.empty() && !d.required) extra += (extra.empty() ? "" : ", ") + std::string("default ") + d.defaultText;
      if (d.repeated) extra += (extra.empty() ? "" : ", ") + std::string("may be repeated");
      if (d.required) extra += (extra.empty() ? "" : ", ") + std::string("required");
      if (!extra.empty()) h += (h.empty() ? "(" : " (") + extra + ")";
      rows.emplace_back(left, h);
    }
    rows.emplace_back("-h, --help", "this help");
    size_t width = 0;
    for (const auto& r : rows)
      if (r.first.size() <= kMaxColumn) width = std::max(width, r.first.size());
    std::string out = usage() + "\n";
    if (!m_about.empty()) out += "  " + indentLines(m_about, "  ") + "\n";
    for (const auto& r : rows) {
      std::string line = "  " + r.first;
      const std::string pad(width + 4, ' ');
      if (r.first.size() > width) line += "\n" + pad;
      else line += std::string(width + 2 - r.first.size(), ' ');
      out += line + indentLines(r.second, pad) + "\n";
    }
    for (const std::string& n : m_notes) out += "  " + indentLines(n, "  ") + "\n";
    return out;
  }

  /// parse(), and what every tool does with its outcome: true to run; false with *exitCode 0
  /// after printing help() to `out` (--help), or 2 after printing "PROGRAM: ERROR", the usage
  /// line and a pointer to --help to `err`.
  bool parseOrReport(int argc, const char* const* argv, int* exitCode, std::FILE* out = stdout, std::FILE* err = stderr) {
    switch (parse(argc, argv)) {
    case Outcome::Run:
      return true;
    case Outcome::Help:
      std::fputs(help().c_str(), out);
      *exitCode = 0;
      return false;
    case Outcome::Error:
      break;
    }
    std::fprintf(err, "%s: %s\n%s\n  ('%s --help' lists the options)\n", m_program.c_str(), m_error.c_str(),
                 usage().c_str(), m_program.c_str());
    *exitCode = 2;
    return false;
  }
  bool parseOrReport(int argc, char** argv, int* exitCode, std::FILE* out = stdout, std::FILE* err = stderr) {
    return parseOrReport(argc, const_cast<const char* const*>(argv), exitCode, out, err);
  }

private:
  static constexpr size_t kMaxColumn = 24; ///< Longer left columns put their help on the next line.

  struct Decl {
    std::vector<std::string> names; ///< Options: "-o", "--out"; positionals: none.
    std::string value;              ///< The value's name ("OUT.bin"); a positional's name.
    std::string help, expects, defaultText, missing;
    bool isFlag = false, repeated = false, positional = false, required = false, given = false;
    std::function<bool(const std::string&)> set; ///< False: the value is refused.
  };

  static Decl decl(const char* names, const char* value, const char* help) {
    Decl d;
    std::string all = names;
    size_t at = 0;
    while (at <= all.size()) {
      const size_t comma = all.find(',', at);
      std::string n = all.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
      const size_t b = n.find_first_not_of(' '), e = n.find_last_not_of(' ');
      if (b != std::string::npos) d.names.push_back(n.substr(b, e - b + 1));
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
    d.value = value;
    d.help = help;
    return d;
  }

  Args& add(Decl d) {
    m_decls.push_back(std::move(d));
    return *this;
  }

  static bool hasName(const Decl& d, const std::string& name) {
    for (const std::string& n : d.names)
      if (n == name) return true;
    return false;
  }

  Decl* find(const std::string& name) {
    for (Decl& d : m_decls)
      if (!d.positional && hasName(d, name)) return &d;
    return nullptr;
  }

  Decl* positionalAt(size_t k) {
    Decl* last = nullptr;
    for (Decl& d : m_decls) {
      if (!d.positional) continue;
      if (k-- == 0) return &d;
      last = &d;
    }
    return last && last->repeated ? last : nullptr; // positionals(): every argument past the others
  }

  static std::string expects(const Decl& d) { return d.expects.empty() ? "a value (" + d.value + ")" : d.expects; }
  static std::string synopsis(const Decl& d) { return d.isFlag ? d.names[0] : d.names[0] + " " + d.value; }

  static std::string shortNumber(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", v);
    return b;
  }

  /// `text` with every line after the first prefixed by `indent`.
  static std::string indentLines(const std::string& text, const std::string& indent) {
    std::string o;
    for (char c : text) {
      o += c;
      if (c == '\n') o += indent;
    }
    return o;
  }

  Outcome fail(std::string why) {
    m_error = std::move(why);
    return Outcome::Error;
  }

  std::string m_program, m_about, m_error;
  std::vector<Decl> m_decls;
  std::vector<std::string> m_notes;
};

} // namespace base
