/* bcryptprimitives.dll with its one function that Rust's std imports,
 * ProcessPrng (for HashMap seeds), for Debian 12's Wine 8.0, which lacks
 * the DLL. It fills the buffer from RtlGenRandom (SystemFunction036), which
 * Wine has. scripts/wine-run builds it into its Wine prefix.
 * <https://learn.microsoft.com/en-us/windows/win32/seccng/processprng> */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len) {
        ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!SystemFunction036(data, n)) return FALSE;
        data += n;
        len -= n;
    }
    return TRUE;
}
