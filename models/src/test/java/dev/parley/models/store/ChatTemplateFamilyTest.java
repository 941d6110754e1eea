package dev.parley.models.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ChatTemplateFamilyTest {
    @Test
    void recognizesTheCommonFormats() {
        assertEquals(ChatTemplateFamily.CHATML, ChatTemplateFamily.of("{{'<|im_start|>' + m.role}}"));
        assertEquals(ChatTemplateFamily.LLAMA3, ChatTemplateFamily.of("<|start_header_id|>user<|end_header_id|>"));
        assertEquals(ChatTemplateFamily.LLAMA2, ChatTemplateFamily.of("[INST] {{ m }} [/INST]"));
        assertEquals(ChatTemplateFamily.OTHER, ChatTemplateFamily.of("{{ messages }}"));
        assertEquals(ChatTemplateFamily.NONE, ChatTemplateFamily.of(null));
    }
}
