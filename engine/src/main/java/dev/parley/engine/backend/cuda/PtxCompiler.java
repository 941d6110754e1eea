package dev.parley.engine.backend.cuda;

import java.nio.charset.StandardCharsets;
import jcuda.nvptxcompiler.JNvPTXCompiler;
import jcuda.nvptxcompiler.nvPTXCompileResult;
import jcuda.nvptxcompiler.nvPTXCompilerHandle;

/**
 * Compiles PTX to machine code with JCuda's bundled nvPTXCompiler, which needs no GPU or driver: proof that a
 * shipped module is accepted by the CUDA 12.0 toolchain. The compiled code is only measured, never loaded.
 */
public final class PtxCompiler {

    private PtxCompiler() {
    }

    /**
     * Compiles {@code ptx} for {@code gpuArch} (e.g. {@code sm_80}) and returns the size in bytes of the result.
     *
     * @throws IllegalStateException with the compiler's error log when the PTX is rejected
     */
    public static long compile(String name, String ptx, String gpuArch) {
        byte[] source = (ptx + '\0').getBytes(StandardCharsets.US_ASCII);
        nvPTXCompilerHandle handle = new nvPTXCompilerHandle();
        check(name, JNvPTXCompiler.nvPTXCompilerCreate(handle, source.length, source), "create", null);
        try {
            String[] options = {"--gpu-name=" + gpuArch};
            int rc = JNvPTXCompiler.nvPTXCompilerCompile(handle, options.length, options);
            check(name, rc, "compile for " + gpuArch, handle);
            long[] size = new long[1];
            check(name, JNvPTXCompiler.nvPTXCompilerGetCompiledProgramSize(handle, size), "size", handle);
            return size[0];
        } finally {
            JNvPTXCompiler.nvPTXCompilerDestroy(handle);
        }
    }

    private static void check(String name, int rc, String what, nvPTXCompilerHandle handle) {
        if (rc == nvPTXCompileResult.NVPTXCOMPILE_SUCCESS) {
            return;
        }
        String log = "";
        if (handle != null) {
            long[] size = new long[1];
            if (JNvPTXCompiler.nvPTXCompilerGetErrorLogSize(handle, size) == nvPTXCompileResult.NVPTXCOMPILE_SUCCESS
                    && size[0] > 0) {
                byte[] bytes = new byte[(int) size[0]];
                JNvPTXCompiler.nvPTXCompilerGetErrorLog(handle, bytes);
                log = ": " + new String(bytes, StandardCharsets.US_ASCII).strip();
            }
        }
        throw new IllegalStateException(name + ": expected nvPTXCompiler to " + what + " but found "
                + nvPTXCompileResult.stringFor(rc) + log);
    }
}
