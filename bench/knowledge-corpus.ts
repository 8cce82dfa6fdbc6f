/**
 * A generated equipment manual for the knowledge benchmark, the same for every run (a seeded
 * generator): sections about a plant's equipment, each naming one error code (E-1000…), one model
 * (ZX-1000…) and one person, none of which any other section names, among sentences of ordinary
 * words. Questions come in two kinds, each answered by one section:
 * - identifier questions name the section's code, model or person ("What does error E-4471 mean?");
 * - ordinary questions share only everyday words with their section: a sentence of it, reworded
 *   as a question, without its identifiers.
 */

const COMPONENTS = (
  "pump valve sensor filter compressor boiler heater fan motor bearing gasket seal hose nozzle thermostat controller display keypad battery charger " +
  "cable relay fuse switch inverter drum belt gear shaft coupling tank pipe regulator burner igniter condenser evaporator drain hinge latch " +
  "impeller manifold chiller damper actuator flange strainer diaphragm piston spring solenoid capacitor transformer terminal breaker bracket housing " +
  "cover lid door panel vent duct grille coil element blower radiator gauge meter probe timer clutch brake roller chain sprocket pulley spindle " +
  "chuck blade guard conveyor hopper auger mixer agitator dryer scrubber separator cyclone boom winch hook"
).split(" ");
const CONDITIONS = (
  "overheats leaks vibrates rattles stalls trips freezes corrodes clogs sparks hums drips sticks slips squeaks flickers wobbles smokes jams " +
  "overflows drifts surges stutters grinds whines chatters cracks loosens sags warps"
).split(" ");
const ACTIONS = (
  "inspect replace clean calibrate tighten lubricate reset test adjust drain flush align remove install check measure isolate restart " +
  "service refill bleed grease polish seal rewire label"
).split(" ");
const ADJECTIVES = "worn loose dirty damaged noisy hot cold bent rusty faulty spare upper lower left right front rear main backup outer inner".split(" ");
const TIMES = ["every morning", "once a week", "once a month", "after each shift", "before startup", "during winter", "at night", "every quarter", "after a storm", "before an audit"];
const FIRST = (
  "Ingrid Tomasz Amara Kenji Lucia Farid Noor Bjorn Chiara Dmitri Esther Goran Hana Idris Jolene Kofi Leila Mateo Nadia Oskar Priya Quentin Rosa Soren " +
  "Talia Ulrich Vesna Wendell Ximena Yusuf Zora Anselm Beatriz Cormac Delphine Emeka Freya Gustavo Hilde Ivo Jasmin Kasimir Lorna Milos Nkechi Orla Pavel Rania Stellan Tamsin"
).split(" ");
const LAST = (
  "Halvorsen Okafor Lindqvist Moreau Nakamura Petrescu Quispe Rahimi Sandoval Thorsen Umarov Vasquez Wojcik Yilmaz Zielinski Abernathy Brannigan Castellanos " +
  "Dragomir Eriksen Fairweather Grimaldi Hargreaves Ivanova Jablonski Kowalczyk Lachance Mbeki Novak Ostrowski Pellegrini Quartermaine Rasmussen Szabo Tanaka " +
  "Underhill Valentin Whitlock Xanthos Yamamoto Zamora Achterberg Bellamy Corcoran Delacroix Eastwood Fontaine Gallagher Holloway Ingersoll"
).split(" ");

export interface Section {
  text: string;
  code: string;
  model: string;
  person: string;
  /** The sentence an ordinary question rewords. */
  ordinary: { action: string; component: string; other: string; condition: string; adjective: string };
}

export interface Question {
  text: string;
  /** The section that answers it. */
  section: number;
  kind: "identifier" | "ordinary";
  /** What an identifier question names. */
  identifier?: string;
}

/** mulberry32: a small seeded generator, so every run builds the same manual. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** `count` sections of about 900 characters (a chunk each: the chunker keeps a paragraph whole). */
export function generateManual(count: number, seed = 25): Section[] {
  const random = generator(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  return Array.from({ length: count }, (_, index) => {
    // Identifiers unique to the section: its index spread over the codes' range.
    const code = `E-${1000 + index}`;
    const model = `ZX-${1000 + ((index * 7919) % 9000)}`;
    const person = `${FIRST[index % FIRST.length]} ${LAST[Math.floor(index / FIRST.length) % LAST.length]}`;
    const component = pick(COMPONENTS);
    const ordinary = { action: pick(ACTIONS), component, other: pick(COMPONENTS), condition: pick(CONDITIONS), adjective: pick(ADJECTIVES) };
    const sentences = [
      `The ${component} of the ${model} unit needs care.`,
      `If the ${ordinary.component} ${ordinary.condition}, ${ordinary.action} the ${ordinary.adjective} ${ordinary.other} ${pick(TIMES)}.`,
      `Error ${code} means the ${component} ${pick(CONDITIONS)}; ${pick(ACTIONS)} the ${pick(COMPONENTS)} and ${pick(ACTIONS)} the ${pick(COMPONENTS)}.`,
      `${person} signed off this procedure ${pick(TIMES)}.`,
    ];
    let text = sentences.join(" ");
    while (text.length < 850) text += ` When the ${pick(ADJECTIVES)} ${pick(COMPONENTS)} ${pick(CONDITIONS)}, ${pick(ACTIONS)} the ${pick(COMPONENTS)} ${pick(TIMES)}.`;
    return { text, code, model, person, ordinary };
  });
}

/** `perKind` identifier questions and `perKind` ordinary ones, about distinct sections. */
export function generateQuestions(manual: Section[], perKind: number, seed = 22): Question[] {
  const random = generator(seed);
  const sections = manual.map((_, index) => index);
  for (let index = sections.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [sections[index], sections[other]] = [sections[other]!, sections[index]!];
  }
  const identifier = sections.slice(0, perKind).map((section, index): Question => {
    const { code, model, person } = manual[section]!;
    const [text, identifier] = ([[`What does error ${code} mean?`, code], [`How do I look after the ${model}?`, model], [`Which procedure did ${person} sign off?`, person]] as const)[index % 3]!;
    return { text, section, kind: "identifier", identifier };
  });
  const ordinary = sections.slice(perKind, 2 * perKind).map((section): Question => {
    const { action, component, other, condition, adjective } = manual[section]!.ordinary;
    return { text: `What should I ${action} when the ${component} ${condition}? Is it the ${adjective} ${other}?`, section, kind: "ordinary" };
  });
  return [...identifier, ...ordinary];
}
