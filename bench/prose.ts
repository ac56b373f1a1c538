// Benchmark text: deterministic English-like prose, the same for every run and machine.

/** Deterministic English-like prose: sentences of common words, paragraphs of 4-8 sentences. */
export function prose(chars: number, seed = 7): string {
  const words =
    'the of and to in that it was for on are as with his they at be this from have or by one had not but what all were when we there can an your which their said if do will each about how up out them then she many some so these would other into has more her two like him see time could no make than first been its who now people my made over did down only way find use may water long little very after words called just where most know get through back much before go good new write our used me man too any day same right look think also around another came come work three word must because does part even place well such here take why things help put years different away again off went old number great tell men say small every found still between name should home big give air line set own under read last never us left end along while might next sound below saw something thought both few those always looked show large often together asked house world going want school important until form food keep children feet land side without boy once animals life enough took sometimes four head above kind began almost live page got earth need far hand high year mother light parts country father let night following picture being study second eyes soon times story boys since white days ever paper hard near sentence better best across during today others however sure means knew its try told young miles sun ways thing whole hear example heard several change answer room sea against top turned learn point city play toward five using himself usually'.split(
      ' ',
    );
  let x = seed;
  const rnd = (n: number) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
  let out = '';
  while (out.length < chars) {
    let para = '';
    for (let s = 0, ns = 4 + rnd(5); s < ns; s++) {
      const n = 6 + rnd(14);
      const sentence = Array.from({ length: n }, () => words[rnd(words.length)]).join(' ');
      para += `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}${rnd(6) === 0 ? '?' : rnd(5) === 0 ? ',' : '.'} `;
    }
    out += `${para.trim()}\n`;
  }
  return out.slice(0, chars);
}

/** The benchmarks' caption: 1,200 characters of prose in lines of about 60, at most 20 lines. */
export function caption(): string {
  return prose(1200, 3)
    .split('\n')
    .join(' ')
    .replace(/(.{60}\S*) /g, '$1\n')
    .split('\n')
    .slice(0, 20)
    .join('\n');
}
