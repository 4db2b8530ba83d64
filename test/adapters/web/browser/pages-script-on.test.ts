/** Every page with script on: see every-page.ts. Listener ports of its own, other than the defaults: the stations page must name them. */
import { describeEveryPage } from "./every-page.ts";

describeEveryPage(true, { tcp: 6231, udp: 6232 });
