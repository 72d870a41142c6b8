// file_list.hpp - the inputs of `check`: its FILE operands, or the names a
// --files0-from list holds, NUL-separated, as GNU du and wc read them.
#ifndef UTF8GUARD_CLI_FILE_LIST_HPP
#define UTF8GUARD_CLI_FILE_LIST_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace utf8guard::cli {

class file_list {
 public:
  // from_operands lists the FILEs as given; none means standard input.
  static file_list from_operands(const std::vector<std::string>& files);

  // read_files0 reads the names in the file `list` ("-": standard input),
  // each ended by a NUL byte. An entry that cannot be checked (an empty name;
  // "-" when the list is standard input; a last name with no NUL after it;
  // a read error after the names before it) stays in the list, in its place,
  // as a problem(). Returns 0, or the errno that kept the list from being
  // opened at all.
  int read_files0(const std::string& list);

  [[nodiscard]] std::size_t size() const noexcept { return entries_.size(); }

  // name is entry i's file name (its bytes, whatever they are).
  [[nodiscard]] std::string name(std::size_t i) const;

  // problem is empty when entry i is a name to check; else the text of the
  // message (without "utf8guard: ") that is reported in its place.
  [[nodiscard]] std::string problem(std::size_t i) const;

 private:
  enum class defect : unsigned char { none, empty, stdin_name, unterminated, read_error };
  struct entry {
    std::size_t offset;  // of the name in names_
    std::size_t length;
    defect why;
  };
  void add(std::size_t offset, std::size_t length, defect why);

  std::string list_;   // the list's name, for the messages
  std::string names_;  // every name, each followed by NUL
  std::vector<entry> entries_;
  int read_errno_ = 0;  // for defect::read_error
};

}  // namespace utf8guard::cli

#endif  // UTF8GUARD_CLI_FILE_LIST_HPP
