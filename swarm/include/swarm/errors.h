#pragma once
// Exceptions thrown by the engine. Every message is one line that names the thing at fault and the fix.
#include <stdexcept>
#include <string>

namespace swarm {

// Base of everything the engine throws on purpose.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A Params/Problem field outside its allowed range. `field()` is the field's name as the CLI spells it.
class ValidationError : public Error {
public:
    ValidationError(std::string field, const std::string& message)
        : Error(field + ": " + message), m_field(std::move(field)) {}
    const std::string& field() const noexcept { return m_field; }

private:
    std::string m_field;
};

// No CUDA device, a CUDA build missing, or a strategy that needs hardware this machine lacks.
class UnavailableError : public Error {
public:
    using Error::Error;
};

// A CUDA runtime failure (file:line, the call, the CUDA message); out-of-memory is its own type so
// callers can fall back to the CPU.
class CudaError : public Error {
public:
    using Error::Error;
};
class OutOfMemoryError : public CudaError {
public:
    using CudaError::CudaError;
};

} // namespace swarm
