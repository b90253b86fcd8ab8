// The page: CopilotKit's provider pointed at the runtime (server.mjs), its chat, one frontend tool
// the agent can call (the page's background) and the approval the agent's delete_record waits for.
import { CopilotChat, CopilotKitProvider } from "@copilotkit/react-core/v2";
import { useState } from "react";
import { BackgroundTool } from "./BackgroundTool.js";
import { RecordApproval } from "./RecordApproval.js";

export function App() {
  const [background, setBackground] = useState("#f6f7f9");
  return (
    <CopilotKitProvider runtimeUrl="/api/copilotkit">
      <BackgroundTool onChange={setBackground} />
      <RecordApproval />
      <main className="page" style={{ background }} data-background={background}>
        <header>
          <h1>CopilotKit + Google Antigravity</h1>
          <p>
            Try <q>Please change the background to lightblue with change_background.</q> (a frontend tool) or{" "}
            <q>Delete record 42 with delete_record.</q> (an approval). Without a Gemini key the replies are the
            emulator's scripted ones.
          </p>
        </header>
        <CopilotChat className="chat" />
      </main>
    </CopilotKitProvider>
  );
}
