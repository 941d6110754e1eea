import random, json, sys
random.seed(int(sys.argv[1]))
pools = [
 list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"), list("0123456789"), list(" \t\n\r  "),
 list("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"), list("àéïôüçñÀÉßøåæœ"), list("αβγδΩμέώΐ"), list("абвгдЖЩЯ"),
 list("日本語中文字漢你好世界のテキストカタカナ한국어"), list("١٢٣٤٥٠٩"), list("👍🏽🦙😀🎉❤️‍🔥"), list("\u00a0\u2003\u3000\u2028\u0085\u200b\u0301\u0308"),
 ["'s","'t","'re","'ve","'m","'ll","'d","'S","'T","'RE","'LL","'D","n't"], ["<s>","</s>","<unk>","<|endoftext|>","<|user|>","<|end|>","<|im_start|>"],
 ["the","quick","Hello","world","don't","I'm","ÆØÅ","ﬁ","Ⅻ","½","²","ℌ"], ["  ","   ","    ","\n\n","\r\n","\t\t"," \n"], ["1234567","3.14159","1,000,000","0x1F"],
]
out=[]
for i in range(int(sys.argv[2])):
    n=random.randint(1,25)
    s="".join(random.choice(random.choice(pools)) for _ in range(n))
    out.append(s)
json.dump(out, open(sys.argv[3],"w"))
