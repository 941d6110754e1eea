package dev.parley.audio.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SpeechNormalizerTest {
    private final SpeechNormalizer n = new SpeechNormalizer();

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
        It costs $3.50.                     | It costs three dollars fifty.
        $1                                  | one dollar
        $1,000                              | one thousand dollars
        $0.99                               | ninety-nine cents
        €20 and £2.05                       | twenty euros and two pounds five
        $5 million                          | five million dollars
        25%                                 | twenty-five percent
        3.5% growth                         | three point five percent growth
        Meet at 10:30.                      | Meet at ten thirty.
        Wake at 7:05 am                     | Wake at seven oh five A M
        at 9:00                             | at nine o'clock
        call at 7pm                         | call at seven P M
        It is 21°C outside                  | It is twenty-one degrees Celsius outside
        turn 90° left                       | turn ninety degrees left
        the 1st and 22nd and 103rd          | the first and twenty-second and one hundred third
        the 12th                            | the twelfth
        born in 1999                        | born in nineteen ninety-nine
        since 2005                          | since two thousand five
        in 1900                             | in nineteen hundred
        pi is 3.14                          | pi is three point one four
        -5 below                            | minus five below
        1,234,567 people                    | one million two hundred thirty-four thousand five hundred sixty-seven people
        42                                  | forty-two
        100                                 | one hundred
        0                                   | zero
        agent 007                           | agent zero zero seven
        5 km away                           | five kilometers away
        1 kg                                | one kilogram
        2.5 GB                              | two point five gigabytes
        salt & pepper                       | salt and pepper
        2 + 2 = 4                           | two plus two equals four
        email me @ home                     | email me at home
        ticket #5                           | ticket number five
        ~10 minutes                         | about ten minutes
        and/or                              | and or
        Dr. Who and Mr. Bean                | Doctor Who and Mister Bean
        fruit, e.g. apples                  | fruit, for example apples
        that is, i.e. this                  | that is, that is this
        apples vs. oranges                  | apples versus oranges
        the U.S. army                       | the U S army
        **bold** and *italic* text          | bold and italic text
        # Heading                           | Heading
        ### Sub heading                     | Sub heading
        - a bullet                          | a bullet
        use `grep` here                     | use grep here
        see [the docs](http://x.org/a)      | see the docs
        visit https://example.com now       | visit a link now
        great 😀 job                         | great job
        """)
    void speaks(String in, String expected) {
        assertEquals(expected, n.normalize(in));
    }

    @Test
    void multiLineMarkdownReply() {
        String md = "## Steps\n\n1. Boil **2** eggs\n- Add 5% salt\n```java\ncode();\n```\nDone!";
        assertEquals("Steps\n\none. Boil two eggs\nAdd five percent salt\n\ncode();\n\nDone!", n.normalize(md));
    }

    @Test
    void plainTextIsUnchanged() {
        assertEquals("Hello, how are you today?", n.normalize("Hello, how are you today?"));
        assertEquals("", n.normalize(""));
    }

    @Test
    void numberWords() {
        assertEquals("nine hundred ninety-nine billion", NumberWords.cardinal(999_000_000_000L));
        assertEquals("minus one thousand five", NumberWords.cardinal(-1005));
        assertEquals("one hundredth", NumberWords.ordinal(100));
        assertEquals("twentieth", NumberWords.ordinal(20));
        assertEquals("eleventh", NumberWords.ordinal(11));
        assertEquals("twenty twenty-four", NumberWords.year(2024));
        assertEquals("nineteen oh five", NumberWords.year(1905));
    }
}
