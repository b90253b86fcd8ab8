import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** One skill the agent can look up: a `SKILL.md` directory on disk, or a skill given inline (0.1.21). */
export interface Skill {
  name: string;
  description: string;
  /** The instructions: SKILL.md after its front matter. */
  body: string;
  /** Other files of the skill's directory, relative to it. */
  resources: string[];
}

const maxResources = 200;

/** `name:` / `description:` of a SKILL.md front matter (`---` lines), and the text after it. */
function parseSkillFile(text: string, fallbackName: string): Omit<Skill, "resources"> {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  const header = match?.[1] ?? "";
  const field = (name: string): string | undefined => new RegExp(`^${name}:\\s*(.+)$`, "m").exec(header)?.[1]?.trim().replace(/^["']|["']$/g, "");
  return { name: field("name") ?? fallbackName, description: field("description") ?? "", body: (match?.[2] ?? text).trim() };
}

function resourcesOf(directory: string): string[] {
  const found: string[] = [];
  const queue = [directory];
  while (queue.length > 0 && found.length < maxResources) {
    const current = queue.shift() as string;
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) queue.push(path);
      else if (entry.name !== "SKILL.md") found.push(relative(directory, path));
    }
  }
  return found.sort();
}

/** A skill directory (it holds SKILL.md), or a folder of them: both are how skills are given. One that cannot be read gives none. */
function skillsUnder(path: string): Skill[] {
  try {
    return readSkillsUnder(path);
  } catch {
    return [];
  }
}

function readSkillsUnder(path: string): Skill[] {
  if (!existsSync(path) || !statSync(path).isDirectory()) return [];
  const own = join(path, "SKILL.md");
  if (existsSync(own)) return [{ ...parseSkillFile(readFileSync(own, "utf8"), path.split("/").at(-1) ?? path), resources: resourcesOf(path) }];
  return readdirSync(path, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(path, entry.name, "SKILL.md")))
    .map((entry) => {
      const directory = join(path, entry.name);
      return { ...parseSkillFile(readFileSync(join(directory, "SKILL.md"), "utf8"), entry.name), resources: resourcesOf(directory) };
    });
}

/**
 * The skills of one conversation, read from disk once, when a turn first asks: `skillsPaths` and
 * the directories and inline skills of `skillsConfig` (0.1.19; `enabled: false` turns them all off).
 */
export class SkillCatalogue {
  readonly #load: () => Skill[];
  #skills: Skill[] | undefined;

  constructor(source: { directories: readonly string[]; inline: readonly { name?: string | undefined; description?: string | undefined; content?: string | undefined }[]; enabled: boolean }) {
    this.#load = () => {
      if (!source.enabled) return [];
      const fromDisk = source.directories.flatMap((directory) => skillsUnder(directory));
      const inline = source.inline.map((skill) => ({ name: skill.name ?? "", description: skill.description ?? "", body: skill.content ?? "", resources: [] }));
      return [...fromDisk, ...inline].filter((skill) => skill.name !== "");
    };
  }

  get skills(): readonly Skill[] {
    this.#skills ??= this.#load();
    return this.#skills;
  }

  find(name: string): Skill | undefined {
    return this.skills.find((skill) => skill.name === name);
  }
}
