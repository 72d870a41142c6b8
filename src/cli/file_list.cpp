// file_list.cpp - see file_list.hpp. The names are kept in one string, each
// followed by NUL, and located by offset: a list of a million names costs
// its own size and 24 bytes a name, not an allocation each.
//
// The list is read whole before the first check: inputs are then handed out
// in batches by index (jobs.hpp), and every defect of the list is known, in
// its place, before any report is written.
#include "file_list.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "io.hpp"

namespace utf8guard::cli {
namespace {

// The list is read in pieces of at least this size.
constexpr std::size_t kListPiece = 64 * 1024;

}  // namespace

file_list file_list::from_operands(const std::vector<std::string>& files) {
  if (files.empty()) return from_operands({std::string(kStdinName)});
  file_list l;
  for (const std::string& f : files) {
    const std::size_t at = l.names_.size();
    l.names_.append(f);
    l.names_.push_back('\0');
    l.add(at, f.size(), defect::none);
  }
  return l;
}

int file_list::read_files0(const std::string& list) {
  list_ = list;
  int err = 0;
  input_info info;
  const int fd = open_input(list, err, info);
  if (fd < 0) return err;
  std::size_t have = 0;
  for (;;) {
    if (names_.size() - have < kListPiece) names_.resize(have + std::max(kListPiece, have));
    const ssize_t got = read_some(fd, &names_[have], names_.size() - have);
    if (got <= 0) {
      if (got < 0) read_errno_ = errno;
      break;
    }
    have += static_cast<std::size_t>(got);
  }
  close_input(fd);
  names_.resize(have);
  const bool from_stdin = list == kStdinName;
  std::size_t begin = 0;
  for (std::size_t nul; (nul = names_.find('\0', begin)) != std::string::npos; begin = nul + 1) {
    const std::size_t length = nul - begin;
    defect why = defect::none;
    if (length == 0) {
      why = defect::empty;
    } else if (from_stdin && names_.compare(begin, length, kStdinName) == 0) {
      why = defect::stdin_name;
    }
    add(begin, length, why);
  }
  // After a read error the bytes past the last NUL are most likely part of
  // a name, so only the error is reported.
  if (read_errno_ != 0) {
    add(begin, 0, defect::read_error);
  } else if (begin < have) {
    names_.push_back('\0');
    add(begin, have - begin, defect::unterminated);
  }
  return 0;
}

void file_list::add(std::size_t offset, std::size_t length, defect why) {
  entries_.push_back(entry{offset, length, why});
}

std::string file_list::name(std::size_t i) const {
  return names_.substr(entries_[i].offset, entries_[i].length);
}

std::string file_list::problem(std::size_t i) const {
  const defect why = entries_[i].why;
  if (why == defect::none) return {};
  std::string text = list_;
  if (why == defect::read_error) {
    text.append(": ");
    text.append(std::strerror(read_errno_));
    return text;
  }
  text.push_back(':');
  text.append(std::to_string(i + 1));  // the name's number in the list, from 1
  switch (why) {
    case defect::empty: text.append(": invalid zero-length file name"); break;
    case defect::stdin_name:
      text.append(": when reading file names from standard input, no file name of '-' allowed");
      break;
    case defect::unterminated:
      text.append(": file name not followed by a NUL byte at the end of the list; not checked");
      break;
    case defect::none:
    case defect::read_error: break;
  }
  return text;
}

}  // namespace utf8guard::cli
