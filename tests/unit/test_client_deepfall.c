/*
 * test_client_deepfall.c — lair's deepfall screen (view_deepfall.c): the
 * view of proto/kinds/deepfall.md drawn line by line into 80×24 (what each
 * room pays, a floor's waiting plunder, the floors the Maw eats), the turn
 * (hands, symbols after Dread, Setbacks coming), a press sent with one key
 * and the act form filled with single keys into the choice objects the
 * server expects, every event of the doc as a log line with its fields,
 * the result, and hostile numbers ignored.
 */
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "../../client-cli/screen.h"
#include "../../common/util.h"
#include "../../client-cli/tview.h"
#include "../../client-cli/view.h"
#include "../../client-cli/view_deepfall.h"
#include "../test.h"

/* JSON written with ' for " (readable fixtures). */
static cJSON *pj(const char *text)
{
	char *t = strdup(text);
	for (char *p = t; *p; p++)
		if (*p == '\'')
			*p = '"';
	cJSON *j = cJSON_Parse(t);
	if (!j)
		fprintf(stderr, "bad test JSON: %s\n", t);
	free(t);
	return j;
}

static int apply(struct tv *tv, const char *text, uint64_t now)
{
	cJSON *m = pj(text);
	int f = tv_apply(tv, m, now, view_deepfall_event_line);
	cJSON_Delete(m);
	return f;
}

/* deepfall.md's view shape: 3 seats (us, an AI with a party, an AI between
 * parties), 4 floors of 2 rooms, floor 4 eaten, floor 3's rooms gone (a
 * Worthy End) with plunder waiting there, rooms paying less than their
 * value (held_rise), the Maw about to take F3. */
static const char *SNAPSHOT =
	"{'type':'table','table':9,'seq':20,'name':'deep','kind':'deepfall','state':'playing',"
	"'you':0,'seats':[{'seat':0,'kind':'human','name':'dee','status':'selecting'},"
	"{'seat':1,'kind':'ai','status':'chosen'},{'seat':2,'kind':'ai','status':'chosen'}],"
	"'game':{'decision':3,'deadline':20000,'status':['selecting','chosen','chosen'],"
	"'options':[{'hands':2,'press':true,'target':{'min':1,'max':3},"
	"'recruit':[false,true],'exit':['persist','cash_out','last_stand']}],"
	"'view':{'viewer':0,'round':3,'start_seat':2,'over':false,"
	"'maw':{'frontier':3,'accum':0.75,'last_speed':0.3,'speed':0.35,'falls':1},"
	"'floors':["
	"{'floor':1,'collapsed':false,'plunder':0,'rooms':["
	"{'id':0,'theme':'threshold','value':1,'pays':1,'threat':0,'lock':0,'produces':'none',"
	"'alive':true,'markers':[]},"
	"{'id':1,'theme':'den','value':3,'pays':1,'threat':3,'lock':0,'produces':'steel','alive':true,"
	"'markers':[{'seat':0,'active':2,'fallen':0,'strength':2,'assault_steel':0,"
	"'assault_cunning':0},{'seat':1,'active':1,'fallen':0,'strength':1}]}]},"
	"{'floor':2,'collapsed':false,'plunder':0,'rooms':["
	"{'id':2,'theme':'vault','value':12,'pays':3,'threat':2,'lock':3,'alive':true,"
	"'markers':[{'seat':1,'strength':4}]},"
	"{'id':3,'theme':'crypt','value':5,'threat':2,'lock':1,'alive':false,'markers':[]}]},"
	"{'floor':3,'collapsed':false,'plunder':9,'rooms':["
	"{'id':4,'theme':'throne','value':21,'pays':5,'threat':5,'lock':2,'alive':false,'markers':[]},"
	"{'id':5,'theme':'library','value':14,'pays':3,'threat':1,'lock':2,'alive':false,'markers':[]}]},"
	"{'floor':4,'collapsed':true,'rooms':["
	"{'id':6,'theme':'forge','value':18,'threat':4,'lock':1,'alive':false,'markers':[]},"
	"{'id':7,'theme':'hall','value':9,'threat':1,'lock':1,'alive':false,'markers':[]}]}],"
	"'players':["
	"{'seat':0,'glory':38,'parties':2,'party':{'lineage':'gnoll','calling':'hierophant',"
	"'floor':2,'deepest':3,'last_stand':true,'unbanked':7,'hand_size':4,'moves':1,"
	"'bag':{'recruit':6,'warrior':1,'rogue':1},'discard':{'warrior':2},'wounded':{'priest':1},"
	"'anger':{'deep_cult':2,'gnoll_warrens':0},'turn':{'hands':2,'dice':8,'hand':{'recruit':8},"
	"'rolled':{'steel':3,'cunning':2,'faith':1,'greed':0,'mettle':2,'dread':4},"
	"'symbols':{'steel':3,'cunning':2,'faith':0,'greed':0,'mettle':2,'dread':3},"
	"'setbacks':1,'trinity':true,'stand_offered':false,'acted':false,'act':null}}},"
	"{'seat':1,'glory':12,'parties':1,'party':{'lineage':'golem_born',"
	"'calling':'prospector','floor':3,'deepest':3,'last_stand':false,'unbanked':0,"
	"'hand_size':4,'moves':1,'bag':{'recruit':5},'discard':{},'wounded':{}}},"
	"{'seat':2,'glory':0,'parties':3,'party':null}]}}}";

TEST(client_deepfall_draws_the_view_line_by_line_in_80x24)
{
	struct tv tv;
	tv_init(&tv);
	CHECK(apply(&tv, SNAPSHOT, 0) & TV_OPTIONS);
	struct scr s;
	scr_init(&s, -1, 0);
	struct view_ui ui = {.now = 0, .monte_step = -1};
	view_deepfall_draw(&s, &tv, &ui);
	CHECK_STR(scr_row(&s, 0), " lair  table 9 \"deep\"  deepfall  round 3  playing");
	CHECK_STR(scr_row(&s, 1), "Maw: frontier F3  carried 0.75  speed 0.35 (last 0.30)  "
				  "F3 falls this round!");
	/* Floors: who is on it, then each room in 36 columns (72 / 2 rooms):
	 * theme and value, what it pays when less (p), threat/lock, holders;
	 * a floor whose rooms are gone shows the plunder waiting there. */
	CHECK_STR(scr_row(&s, 2), "F1      Thr1 t0                             Den3 p1 t3 1:2 2:1");
	CHECK_STR(scr_row(&s, 3), "F2 1    VLT12 p3 t2/3 2:4                     --");
	CHECK_STR(scr_row(&s, 4), "F3 2    +9 plunder waits   --                         --");
	for (int r = 5; r <= 9; r++)
		CHECK_STR(scr_row(&s, r), ""); /* F4 is eaten: not drawn */
	CHECK_STR(scr_row(&s, 10),
		  "  # PLAYER      GLORY  PARTY                 FLOOR  LOOT LS  STATUS");
	CHECK_STR(scr_row(&s, 11),
		  ">1 dee             38  gnoll/hierophant      F2        7 LS  selecting");
	CHECK_STR(scr_row(&s, 12),
		  " 2 AI 2            12  golem_born/prospector F3        0     chosen");
	CHECK_STR(scr_row(&s, 13),
		  " 3 AI 3             0  (next round)                          chosen");
	for (int r = 14; r <= 19; r++)
		CHECK_STR(scr_row(&s, r), ""); /* no events yet */
	/* Our party: its draw, free steps, bag, discard, wounded, anger. */
	CHECK_STR(scr_row(&s, 20),
		  "You: deepest F3 hand 4 moves 1 bag rec6 war1 rog1 disc war2 wnd pri1 anger cult2");
	/* The turn so far (the trinity rolled), the press key, the act form's
	 * defaults (our party's floor, no recruit, persist). */
	CHECK_STR(scr_row(&s, 21),
		  "Turn: 2 hands  St3 Cu2 Fa0 Gr0 Me2  Dread 3 (1 Setback)  Trinity   [P] press");
	CHECK_STR(scr_row(&s, 22),
		  "Act: [1-3] F2  [R] recruit no  [K] persist [C] cash out [S] last stand [G] act");
	CHECK_STR(scr_row(&s, 23), "Choose: 20s left  [Q]uit");
	for (int r = 0; r < SCR_H; r++)
		CHECK(strlen(scr_row(&s, r)) <= SCR_W);

	/* A reveal: its events become log lines under the seats. */
	apply(&tv,
	      "{'type':'reveal','table':9,'seq':21,'decision':3,'events':["
	      "{'event':'roll','seat':0,'hand':2,'dice':4,'steel':3,'cunning':2,'faith':0,"
	      "'greed':0,'mettle':2,'dread':3},"
	      "{'event':'dread','seat':0,'rolled':3,'cancelled':0,'to_mettle':0},"
	      "{'event':'claim','seat':0,'room':5,'strength':5,'loot':5},"
	      "{'event':'cash_out','seat':1,'banked':14,'glory':38,'deepest':4,'forced':true},"
	      "{'event':'collapse','floor':3},"
	      "{'event':'room_scored','room':4,'glory':0,'holders':0},"
	      "{'event':'room_scored','seat':0,'room':5,'glory':14,'holders':1},"
	      "{'event':'taken','seat':2,'loot_lost':3,'rooms_lost':1}]}",
	      1000);
	ui.now = 1000;
	view_deepfall_draw(&s, &tv, &ui);
	CHECK_EQ(tv.log_len, 7); /* the unheld room says nothing */
	CHECK_STR(tv.log[0], "You roll hand 2 (4 dice): St3 Cu2 Me2 Dread 3");
	CHECK_STR(scr_row(&s, 14), " You: Dread 3, 0 cancelled, 0 to Mettle");
	CHECK_STR(scr_row(&s, 15), " You claim F3.2 (strength 5, loot 5)");
	CHECK_STR(scr_row(&s, 16), " AI 2 cashes out (forced) from F4: banks 14, glory now 38");
	CHECK_STR(scr_row(&s, 17), " The Maw eats floor 3!");
	CHECK_STR(scr_row(&s, 18), " You score F3.2: +14 glory");
	CHECK_STR(scr_row(&s, 19), " AI 3 is TAKEN by the Maw (3 loot, 1 rooms lost)");
	CHECK_STR(scr_row(&s, 22), ""); /* no options after the reveal */
	tv_free(&tv);
}

/* deepfall.md's round-5 example and the events of its table the example
 * lacks, each as the log line it makes: every field in words. */
TEST(client_deepfall_every_event_of_the_doc_as_a_line)
{
	struct tv tv;
	tv_init(&tv);
	apply(&tv, SNAPSHOT, 0);
	static const char *const want[][2] = {
		{"{'event':'roll','seat':1,'hand':2,'dice':2,'steel':0,'cunning':0,'faith':0,"
		 "'greed':0,'mettle':1,'dread':1}",
		 "AI 2 rolls hand 2 (2 dice): Me1 Dread 1"},
		{"{'event':'roll','seat':0,'hand':1,'dice':1,'steel':0,'cunning':0,'faith':0,"
		 "'greed':0,'mettle':0,'dread':0}",
		 "You roll hand 1 (1 die): nothing"},
		{"{'event':'move','seat':0,'from':3,'to':5,'bought':2}",
		 "You move F3 -> F5 (2 steps bought)"},
		{"{'event':'dread','seat':1,'rolled':2,'cancelled':1,'to_mettle':1}",
		 "AI 2: Dread 2, 1 cancelled, 1 to Mettle"},
		{"{'event':'last_stand','seat':1,'mettle':0}", "AI 2 declares a Last Stand (free)"},
		{"{'event':'last_stand','seat':0,'mettle':3}", "You declare a Last Stand (3 Mettle)"},
		{"{'event':'assault','seat':1,'room':2,'steel':2,'cunning':0}",
		 "AI 2 assaults F2.1 (steel 2, cunning 0 kept)"},
		{"{'event':'worthy_end','seat':1,'payout':45,'floor':6,'rooms_consumed':2}",
		 "AI 2: a Worthy End on F6, +45 glory, 2 rooms consumed"},
		{"{'event':'room_scored','seat':0,'room':1,'glory':3,'holders':2}",
		 "You score F1.2: +3 glory (split 2 ways)"},
		{"{'event':'value_rise','floor':5,'glory':23}", "Plunder rises to F5 (+23)"},
		{"{'event':'value_rise','floor':3,'glory':9,'waits':true}",
		 "Plunder rises to F3 (+9) and waits there: no live room"},
		{"{'event':'plunder_fled','floor':5,'glory':7,'waits':false}",
		 "Plunder (+7) flees the Worthy End to the rooms of F5"},
		{"{'event':'plunder_fled','floor':3,'glory':4,'waits':true}",
		 "Plunder (+4) flees the Worthy End and waits on F3: no live room"},
		{"{'event':'maw','speed':0.25,'accum':0.235,'frontier':5}",
		 "The Maw: speed 0.25, carried 0.23, frontier F5"},
		{"{'event':'draft','seat':1,'lineage':'golem_born','calling':'hierophant','floor':2}",
		 "AI 2: a golem_born hierophant enters on F2"},
		{"{'event':'round','round':6,'start_seat':1}", "-- round 6, AI 2 first --"},
		{"{'event':'recruit','seat':0,'die':'warrior'}", "You recruit a warrior"},
		{"{'event':'heal','seat':1,'die':'priest'}", "AI 2 heals a priest"},
		{"{'event':'loot','seat':0,'loot':1,'unbanked':4}", "You loot 1 (unbanked 4)"},
		{"{'event':'setback','seat':0,'dice_lost':0,'loot_lost':0,'shrugged':true}",
		 "You: a Setback (0 dice, 0 loot lost), shrugged off"},
		{"{'event':'game_over','rounds':18,'winners':[1,2]}",
		 "Game over after 18 rounds; winners: AI 2, AI 3"},
	};
	for (size_t i = 0; i < ARRAY_LEN(want); i++) {
		cJSON *ev = pj(want[i][0]);
		char line[TV_LOG_W + 1];
		CHECK_MSG(view_deepfall_event_line(ev, &tv, line, sizeof line) == 1, "%s: no line", want[i][0]);
		CHECK_STR(line, want[i][1]);
		cJSON_Delete(ev);
	}
	tv_free(&tv);
}

/* More than one floor falls: the Maw's row says which. */
TEST(client_deepfall_the_maw_row_names_every_floor_that_falls)
{
	struct tv tv;
	tv_init(&tv);
	apply(&tv, SNAPSHOT, 0);
	cJSON *maw = cJSON_GetObjectItem(tv.view, "maw");
	cJSON_ReplaceItemInObject(maw, "falls", cJSON_CreateNumber(2));
	struct scr s;
	scr_init(&s, -1, 0);
	struct view_ui ui = {.monte_step = -1};
	view_deepfall_draw(&s, &tv, &ui);
	CHECK_STR(scr_row(&s, 1), "Maw: frontier F3  carried 0.75  speed 0.35 (last 0.30)  "
				  "F3-F2 fall this round!");
	tv_free(&tv);
}

/* Applies keys; returns the printed choice of the last send ("" if none). */
static const char *keys(const struct tv *tv, struct view_form *f, const char *ks, char *out,
			size_t n)
{
	out[0] = '\0';
	for (const char *k = ks; *k; k++) {
		cJSON *c = NULL;
		view_deepfall_form_key(tv, f, *k, &c);
		if (c) {
			char *t = cJSON_PrintUnformatted(c);
			snprintf(out, n, "%s", t);
			free(t);
			cJSON_Delete(c);
		}
	}
	return out;
}

TEST(client_deepfall_form_keys_make_the_choice_object)
{
	struct tv tv;
	tv_init(&tv);
	apply(&tv, SNAPSHOT, 0);
	struct view_form f = {0};
	char out[200];
	/* The act's defaults, sent at once: our party's floor (2), persist. */
	CHECK_STR(keys(&tv, &f, "G", out, sizeof out),
		  "{\"target\":2,\"recruit\":false,\"exit\":\"persist\"}");
	CHECK_EQ(f.sent, 1);
	CHECK_EQ(f.decision, 3);
	/* P presses at once: one more hand. */
	CHECK_STR(keys(&tv, &f, "P", out, sizeof out), "{\"press\":true}");
	CHECK_EQ(f.v[VIEW_DEEPFALL_SENT_PRESS], 1);
	/* Target 3; 4 is beyond the frontier (the key is not the form's). */
	cJSON *c = NULL;
	CHECK_EQ(view_deepfall_form_key(&tv, &f, '3', &c), 1);
	CHECK(c == NULL);
	CHECK_EQ(f.sent, 0); /* changed since it was sent */
	CHECK_EQ(f.v[VIEW_DEEPFALL_SENT_PRESS], 0);
	CHECK_EQ(view_deepfall_form_key(&tv, &f, '4', &c), 0);
	CHECK_EQ(view_deepfall_form_key(&tv, &f, 'Z', &c), 0);
	CHECK_EQ(f.v[VIEW_DEEPFALL_TARGET], 3);
	/* Recruit toggles; C and S toggle the exit; - and + step the target. */
	CHECK_STR(keys(&tv, &f, "RSCCS-G", out, sizeof out),
		  "{\"target\":2,\"recruit\":true,\"exit\":\"last_stand\"}");
	CHECK_STR(keys(&tv, &f, "K+++\r", out, sizeof out),
		  "{\"target\":3,\"recruit\":true,\"exit\":\"persist\"}");
	CHECK_STR(keys(&tv, &f, "RC1 ", out, sizeof out),
		  "{\"target\":1,\"recruit\":false,\"exit\":\"cash_out\"}");
	/* The screen shows the form as it stands. */
	struct scr s;
	scr_init(&s, -1, 0);
	struct view_ui ui = {.now = 0, .monte_step = -1, .form = f};
	keys(&tv, &ui.form, "S", out, sizeof out);
	view_deepfall_draw(&s, &tv, &ui);
	CHECK_STR(scr_row(&s, 22),
		  "Act: [1-3] F1  [R] recruit no  [K] persist [C] cash out [S] last stand [G] act");
	keys(&tv, &ui.form, "G", out, sizeof out);
	view_deepfall_draw(&s, &tv, &ui);
	CHECK(strstr(scr_row(&s, 23), "Choose: 20s left") != NULL);

	/* A new decision: the defaults again, from the new options; no press
	 * left, no recruit, no last stand offered. */
	apply(&tv, "{'type':'options','table':9,'seq':21,'decision':4,'deadline':9000,"
		   "'options':[{'hands':4,'press':false,'target':{'min':1,'max':2},"
		   "'recruit':[false],'exit':['persist','cash_out']}]}",
	      0);
	CHECK_EQ(view_deepfall_form_key(&tv, &f, 'R', &c), 0); /* no recruit offered */
	CHECK_EQ(view_deepfall_form_key(&tv, &f, 'S', &c), 0); /* no last stand offered */
	CHECK_EQ(view_deepfall_form_key(&tv, &f, 'P', &c), 0); /* no press left */
	CHECK(c == NULL);
	CHECK_STR(keys(&tv, &f, "G", out, sizeof out),
		  "{\"target\":2,\"recruit\":false,\"exit\":\"persist\"}");
	CHECK_EQ(f.decision, 4);
	ui.form = f;
	view_deepfall_draw(&s, &tv, &ui);
	CHECK_STR(scr_row(&s, 21), "Turn: 2 hands  St3 Cu2 Fa0 Gr0 Me2  Dread 3 (1 Setback)  Trinity");
	CHECK_STR(scr_row(&s, 22), "Act: [1-2] F2  [K] persist [C] cash out [G] act");

	/* No options (after the reveal), or watching: no form. */
	apply(&tv, "{'type':'reveal','table':9,'seq':22,'decision':4,'events':[]}", 0);
	CHECK_EQ(view_deepfall_form_key(&tv, &f, 'G', &c), 0);
	CHECK(c == NULL);
	struct view_form now;
	CHECK_EQ(view_deepfall_form_now(&tv, &f, &now), 0);
	tv_free(&tv);
	tv_init(&tv);
	apply(&tv, SNAPSHOT, 0);
	tv.seat = -1;
	CHECK_EQ(view_deepfall_form_key(&tv, &f, 'G', &c), 0);
	view_deepfall_draw(&s, &tv, &ui);
	CHECK(strstr(scr_row(&s, 0), "[watching]") != NULL);
	CHECK_STR(scr_row(&s, 21), "");
	CHECK_STR(scr_row(&s, 22), "");
	tv_free(&tv);
}

/* Once our act is sent and the others still roll, the act is shown. */
TEST(client_deepfall_shows_our_act_while_the_others_press)
{
	struct tv tv;
	tv_init(&tv);
	apply(&tv, SNAPSHOT, 0);
	apply(&tv,
	      "{'type':'reveal','table':9,'seq':21,'decision':3,'events':[],"
	      "'view':{'viewer':0,'round':3,'maw':{'frontier':3},'floors':[],'players':["
	      "{'seat':0,'glory':38,'party':{'lineage':'gnoll','calling':'hierophant',"
	      "'floor':2,'turn':{'hands':2,'symbols':{'steel':3},'setbacks':0,'acted':true,"
	      "'act':{'target':3,'recruit':true,'exit':'cash_out'}}}}]}}",
	      0);
	struct scr s;
	scr_init(&s, -1, 0);
	struct view_ui ui = {.monte_step = -1};
	view_deepfall_draw(&s, &tv, &ui);
	CHECK_STR(scr_row(&s, 21), "Turn: 2 hands  St3 Cu0 Fa0 Gr0 Me0  Dread 0");
	CHECK_STR(scr_row(&s, 22),
		  "Acted: target F3, cash_out, recruit. Waiting for the others.");
	tv_free(&tv);
}

TEST(client_deepfall_draws_the_result)
{
	struct tv tv;
	tv_init(&tv);
	apply(&tv, SNAPSHOT, 0);
	/* deepfall.md's result, for our three seats. */
	apply(&tv,
	      "{'type':'result','table':9,'seq':21,'result':{'scores':[212,62,62],"
	      "'winners':[0],'rounds':11,'margin':150,"
	      "'players':[{'seat':0,'glory':212,'ai':false,'glory_by_exit':{'cash_out':197,"
	      "'press_on':0,'worthy_end':15},'parties':5,'cash_outs':4,'worthy_ends':1,"
	      "'taken':0,'setbacks':3,'claims':9,'deepest':4},"
	      "{'seat':1,'glory':62,'ai':true,'glory_by_exit':{'cash_out':40,'press_on':22,"
	      "'worthy_end':0},'parties':3,'cash_outs':2,'worthy_ends':0,'taken':1,"
	      "'setbacks':5,'claims':6,'deepest':6}]}}",
	      0);
	struct scr s;
	scr_init(&s, -1, 0);
	struct view_ui ui = {.monte_step = -1};
	view_deepfall_draw(&s, &tv, &ui);
	CHECK_STR(scr_row(&s, 2), "GAME OVER after 11 rounds");
	/* Row 6: a seat the result has no details for: its score, zeros. */
	static const char *const want[] = {
		"  # PLAYER       GLORY        CASH-OUT PRESS-ON WORTHY PARTIES CO WE TK CL DEEP",
		">1 dee             212 WINNER      197        0     15       5  4  1  0  9    4",
		" 2 AI 2             62              40       22      0       3  2  0  1  6    6",
		" 3 AI 3             62               0        0      0       0  0  0  0  0    0",
	};
	for (int i = 0; i < 4; i++)
		CHECK_STR(scr_row(&s, 3 + i), want[i]);
	CHECK_STR(scr_row(&s, 23), "[R]ematch (host)  [L]obby  [Q]uit");
	tv_free(&tv);
}

TEST(client_deepfall_hostile_numbers_are_ignored)
{
	struct tv tv;
	tv_init(&tv);
	apply(&tv,
	      "{'type':'table','table':9,'seq':1,'kind':'deepfall','state':'playing','you':0,"
	      "'seats':[{'seat':0,'kind':'human','name':'dee'}],"
	      "'game':{'decision':1,'options':[{'target':{'min':1,'max':1e300},"
	      "'press':2.5,'exit':[1e300,'persist']}],"
	      "'view':{'round':1e300,'maw':{'frontier':1e300,'accum':1e300,"
	      "'last_speed':-1e300,'speed':'x','falls':1e300},"
	      "'floors':[{'floor':2.5,'rooms':[]},{'floor':1,'rooms':[{'id':1e300,"
	      "'theme':7,'value':1e300,'threat':-1e300,'lock':2.5,'alive':true,"
	      "'markers':[{'seat':1e300,'strength':1e300},{'seat':0,'strength':'9'}]}]}],"
	      "'players':[{'seat':0,'glory':1e300,'party':{'floor':1e300,'deepest':-1e300,"
	      "'unbanked':2.5,'hand_size':'4','bag':{'recruit':1e300,'rogue':2}}}]}}}",
	      0);
	struct scr s;
	scr_init(&s, -1, 0);
	struct view_ui ui = {.monte_step = -1};
	view_deepfall_draw(&s, &tv, &ui);
	CHECK_STR(scr_row(&s, 1), "Maw: frontier F0  carried 0.00  speed 0.00 (last 0.00)");
	CHECK_STR(scr_row(&s, 2), "F1      ?0 t0 1:0"); /* theme 7, 1e300s: unread */
	CHECK(strstr(scr_row(&s, 11), ">1 dee              0  ?/?") != NULL);
	CHECK_STR(scr_row(&s, 20), "You: deepest F0 hand 0 moves 0 bag rog2");
	/* An unreadable target range: no form, nothing sent. */
	cJSON *c = NULL;
	struct view_form f = {0};
	CHECK_EQ(view_deepfall_form_key(&tv, &f, 'G', &c), 0);
	CHECK_EQ(view_deepfall_form_key(&tv, &f, 'P', &c), 0);
	CHECK(c == NULL);
	/* Hostile events: lines without the unreadable numbers. */
	apply(&tv, "{'type':'reveal','table':9,'seq':2,'events':["
		   "{'event':'claim','seat':1e300,'room':1e300,'strength':2.5,'loot':-1e300},"
		   "{'event':'maw','speed':1e300,'frontier':'3'}]}",
	      0);
	CHECK_STR(tv.log[tv.log_len - 2], "? claims ? (strength 0, loot 0)");
	CHECK_STR(tv.log[tv.log_len - 1], "The Maw: speed 0.00, carried 0.00, frontier F0");
	tv_free(&tv);
}
