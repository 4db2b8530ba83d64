/** Every page with script off: see every-page.ts. Listener ports of its own, other than the defaults: the stations page must name them. */
import { describeEveryPage } from "./every-page.ts";

describeEveryPage(false, { tcp: 6241, udp: 6242 });
