#include "app/model/History.h"

#include <algorithm>

namespace navbench {

void History::changed(Change c) {
  ++m_version;
  if (onChange) onChange(c);
}

void History::push(HistoryClient* client, std::string what) {
  if (!client) return;
  m_done.push_back({client, std::move(what)});
  if (m_done.size() > kMaxSteps) m_done.erase(m_done.begin());
  m_undone.clear();
  changed(Change::Push);
}

bool History::undo() { return replay(m_done, m_undone, false); }

bool History::redo() { return replay(m_undone, m_done, true); }

bool History::replay(std::vector<Step>& from, std::vector<Step>& to, bool forward) {
  const bool moved = moveLast(from, to, [forward](Step& s) {
    if (forward) s.client->redo();
    else s.client->undo();
  });
  if (moved) changed(forward ? Change::Redo : Change::Undo);
  return moved;
}

const std::string& History::undoName() const {
  static const std::string none;
  return m_done.empty() ? none : m_done.back().what;
}

const std::string& History::redoName() const {
  static const std::string none;
  return m_undone.empty() ? none : m_undone.back().what;
}

void History::noteChange() { changed(Change::Note); }

void History::reset() {
  m_done.clear();
  m_undone.clear();
  changed(Change::Reset);
}

void History::forget(const HistoryClient* client) {
  auto of = [client](const Step& s) { return s.client == client; };
  m_done.erase(std::remove_if(m_done.begin(), m_done.end(), of), m_done.end());
  m_undone.erase(std::remove_if(m_undone.begin(), m_undone.end(), of), m_undone.end());
}

} // namespace navbench
