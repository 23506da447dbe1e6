/** The entry of the XML engine's worker thread (see engine-thread.ts). */
import { serveXmlEngine } from './engine-thread.js';

serveXmlEngine();
