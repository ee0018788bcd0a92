// CpuDevices: the CPU backend's devices in this process (CpuTopology's groups for the
// PYK_CPU_DEVICES setting, fixed at first use), an engine each, and the device each host thread
// works on. With one device (the default) nothing is bound: the engine's workers run anywhere in
// the affinity mask. With several, each device's workers are bound to its CPUs, a thread that
// selects a device is bound to them too (its launches run blocks on it), and memory allocated
// there prefers the device's NUMA node.
#pragma once

#include "cpu/CpuTopology.h"

namespace pyk::cpu {

class CpuEngine;

int cpuDeviceCount();
const CpuGroup& cpuDeviceGroup(int id);
// The calling thread's device: the one it selected, else 0.
int currentCpuDevice();
// Makes `id` the calling thread's device (binding the thread to its CPUs when there are several
// devices). Throws pyk::Error (Device) naming the devices there are.
void selectCpuDevice(int id);
// Device `id`'s engine, made at its first launch.
CpuEngine& cpuEngine(int id);

} // namespace pyk::cpu
